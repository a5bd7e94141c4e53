// The python3* bootstrap cfn-local runs in each execution environment: a small client of Lambda's Runtime API with
// AWS's handler resolution (`path/module.function`), context object, logging format and error shape.
// https://docs.aws.amazon.com/lambda/latest/dg/python-handler.html, python-context.html, python-exceptions.html
// Why not awslambdaric: it comes from PyPI and builds a C extension; this one needs only the standard library.

export const PYTHON_BOOTSTRAP = String.raw`
import importlib, json, logging, os, sys, time, traceback, urllib.request

API = os.environ["AWS_LAMBDA_RUNTIME_API"]
ROOT = os.environ["LAMBDA_TASK_ROOT"]
sys.path.insert(0, ROOT)
request_id = None

def call(method, route, body=None, headers=None):
    req = urllib.request.Request("http://" + API + "/2018-06-01/runtime" + route, data=body, method=method, headers=headers or {})
    with urllib.request.urlopen(req, timeout=None) as res:
        return res.headers, res.read()

class LambdaContext:
    def __init__(self, headers):
        self._deadline = int(headers.get("Lambda-Runtime-Deadline-Ms", "0"))
        self.function_name = os.environ.get("AWS_LAMBDA_FUNCTION_NAME")
        self.function_version = os.environ.get("AWS_LAMBDA_FUNCTION_VERSION")
        self.invoked_function_arn = headers.get("Lambda-Runtime-Invoked-Function-Arn")
        self.memory_limit_in_mb = os.environ.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE")
        self.aws_request_id = headers.get("Lambda-Runtime-Aws-Request-Id")
        self.log_group_name = os.environ.get("AWS_LAMBDA_LOG_GROUP_NAME")
        self.log_stream_name = os.environ.get("AWS_LAMBDA_LOG_STREAM_NAME")
        cc = headers.get("Lambda-Runtime-Client-Context")
        self.client_context = json.loads(cc) if cc else None
        ci = headers.get("Lambda-Runtime-Cognito-Identity")
        self.identity = json.loads(ci) if ci else None

    def get_remaining_time_in_millis(self):
        return max(0, self._deadline - int(time.time() * 1000))

class RequestIdFilter(logging.Filter):
    def filter(self, record):
        record.aws_request_id = request_id
        return True

# The Python runtime's logging: "[LEVEL]\t<time>\t<request id>\t<message>" on the root logger at WARNING.
handler = logging.StreamHandler(sys.stdout)
handler.setFormatter(logging.Formatter("[%(levelname)s]\t%(asctime)s.%(msecs)03dZ\t%(aws_request_id)s\t%(message)s\n", "%Y-%m-%dT%H:%M:%S"))
handler.formatter.converter = time.gmtime
handler.addFilter(RequestIdFilter())
logging.getLogger().addHandler(handler)
logging.getLogger().setLevel(logging.WARNING)

def error_of(exc, type_name=None, frames=True):
    stack = traceback.format_list(traceback.extract_tb(exc.__traceback__)[1:]) if frames else []
    return {"errorMessage": str(exc), "errorType": type_name or type(exc).__name__, "requestId": request_id or "", "stackTrace": stack}

def report(route, payload):
    body = json.dumps(payload).encode()
    sys.stdout.write("[ERROR] " + payload["errorType"] + ": " + payload["errorMessage"] + "\n")
    sys.stdout.flush()
    call("POST", route, body, {"Content-Type": "application/json", "Lambda-Runtime-Function-Error-Type": payload["errorType"]})

def load_handler():
    full = os.environ.get("_HANDLER", "")
    try:
        modname, fname = full.rsplit(".", 1)
    except ValueError:
        raise_init("Runtime.MalformedHandlerName", "Bad handler '" + full + "': not enough values to unpack (expected 2, got 1)")
    try:
        module = importlib.import_module(modname.replace("/", "."))
    except ImportError as e:
        raise_init("Runtime.ImportModuleError", "Unable to import module '" + modname + "': " + str(e))
    except SyntaxError as e:
        raise_init("Runtime.UserCodeSyntaxError", "Syntax error in module '" + modname + "': " + str(e))
    fn = getattr(module, fname, None)
    if fn is None:
        raise_init("Runtime.HandlerNotFound", "Handler '" + fname + "' missing on module '" + modname + "'")
    return fn

def raise_init(error_type, message):
    report("/init/error", {"errorMessage": message, "errorType": error_type, "requestId": "", "stackTrace": []})
    sys.exit(1)

def main():
    global request_id
    try:
        fn = load_handler()
    except SystemExit:
        raise
    except Exception as e:
        report("/init/error", error_of(e))
        sys.exit(1)
    while True:
        headers, body = call("GET", "/invocation/next")
        request_id = headers.get("Lambda-Runtime-Aws-Request-Id")
        route = "/invocation/" + request_id
        try:
            event = json.loads(body.decode("utf-8") or "null")
        except Exception as e:
            report(route + "/error", error_of(e, "Runtime.UnmarshalError", False))
            continue
        try:
            result = fn(event, LambdaContext(headers))
        except Exception as e:
            report(route + "/error", error_of(e))
            continue
        try:
            out = json.dumps(result).encode()
        except Exception as e:
            report(route + "/error", error_of(e, "Runtime.MarshalError", False) | {"errorMessage": "Unable to marshal response: " + str(e)})
            continue
        call("POST", route + "/response", out, {"Content-Type": "application/json"})

main()
`;
