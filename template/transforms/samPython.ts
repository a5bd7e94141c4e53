// The Python side of the SAM transform: finding an interpreter that can import AWS's translator
// (aws-sam-translator), and the worker script it runs, which answers one JSON line per template.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The worker: reads `{id, template, parameters, region}` lines on stdin and writes `{id, template}` or
 * `{id, error}` lines on the stdout it was started with; anything the translator prints goes to stderr. Errors read
 * as AWS shows them: the document error followed by each cause (the SAM CLI's sam-translate.py joins them the same
 * way), and AWS's "Internal transform failure." for anything else. The managed-policy map is the translator's bundled
 * one: an empty loader keeps it from calling IAM.
 */
export const WORKER_SOURCE = String.raw`
import json, logging, os, sys, traceback
SAR_REFUSAL = (" (cfn-local: an AWS::Serverless::Application from the Serverless Application Repository needs AWS;"
               " give its Location as a template URL.)")
out = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr
logging.disable(logging.CRITICAL)
from samtranslator.parser.parser import Parser
from samtranslator.translator.translator import Translator
from samtranslator.public.exceptions import InvalidDocumentException

class Session:
    def __init__(self, region):
        self.region_name = region

def translate(req):
    translator = Translator(None, Parser(), boto_session=Session(req["region"]))
    return translator.translate(req["template"], parameter_values=dict(req["parameters"]), get_managed_policy_map=lambda: {})

out.write(json.dumps({"ready": True}) + "\n")
out.flush()
for line in sys.stdin:
    req = json.loads(line)
    try:
        reply = {"id": req["id"], "template": translate(req)}
    except InvalidDocumentException as e:
        message = e.message
        for cause in e.causes:
            message += " " + cause.message
        reply = {"id": req["id"], "error": message}
    except Exception as e:
        print("sam worker: %r" % (e,), file=sys.stderr)
        message = "Internal transform failure."
        if "serverless_app_plugin" in "".join(traceback.format_tb(e.__traceback__)):
            message += SAR_REFUSAL
        reply = {"id": req["id"], "error": message}
    out.write(json.dumps(reply) + "\n")
    out.flush()
`;

/**
 * The worker's environment: without AWS credentials, region or profile, the translator's one networked plugin (an
 * AWS::Serverless::Application from the Serverless Application Repository) fails at once instead of calling AWS.
 */
export function workerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('AWS_')));
}

export const SAM_INSTALL_HINT = 'pip install aws-sam-translator';

/**
 * The interpreter's own executable when it can import samtranslator (a missing or broken one cannot). A shim (pyenv,
 * asdf) answers with the Python it stands for, so the worker starts without the shim's own start-up.
 */
function canImport(python: string, module = 'samtranslator'): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(python, ['-c', `import sys, ${module}; print(sys.executable)`], { timeout: 60_000 }, (err, stdout) => {
      resolve(err ? undefined : stdout.trim() || python);
    });
  });
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every `python3` on PATH, in PATH order. */
function pythonsOnPath(path = process.env.PATH ?? ''): string[] {
  const seen = new Set<string>();
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'python3');
    if (executable(candidate)) seen.add(candidate);
  }
  return [...seen];
}

/** The configured interpreter when it can import samtranslator, else the first python3 on PATH that can. */
export function findSamPython(configured?: string): Promise<string | undefined> {
  return findPythonWith('samtranslator', configured);
}

/**
 * The configured interpreter when it can import the module, else the first python3 on PATH that can (the end-to-end
 * tests find their boto3 the same way).
 */
export async function findPythonWith(module: string, configured?: string): Promise<string | undefined> {
  // A configured interpreter is run as given (it may be a wrapper on purpose).
  if (configured) return (await canImport(configured, module)) ? configured : undefined;
  for (const candidate of pythonsOnPath()) {
    const python = await canImport(candidate, module);
    if (python) return python;
  }
  return undefined;
}
