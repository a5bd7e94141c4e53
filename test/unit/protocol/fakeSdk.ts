// Test helper: a real CloudFormationClient whose HTTP handler captures each request and
// answers with whatever the test's encoder produced, so the SDK's own serde judges our wire format.
import { Readable } from 'node:stream';
import { CloudFormationClient, type CloudFormationClientConfig } from '@aws-sdk/client-cloudformation';

export interface CannedResponse {
  statusCode: number;
  body: string;
  headers?: Record<string, string>;
}

export interface CapturedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export function fakeClient(
  reply: (req: CapturedRequest) => CannedResponse,
  config: Partial<CloudFormationClientConfig> = {},
) {
  const requests: CapturedRequest[] = [];
  const requestHandler = {
    async handle(req: { method: string; path: string; headers: Record<string, string>; body?: unknown }) {
      const captured = { method: req.method, path: req.path, headers: req.headers, body: String(req.body ?? '') };
      requests.push(captured);
      const res = reply(captured);
      return {
        response: {
          statusCode: res.statusCode,
          headers: res.headers ?? { 'content-type': 'text/xml' },
          body: Readable.from([Buffer.from(res.body, 'utf8')]),
        },
      };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs() {
      return {};
    },
  };
  const client = new CloudFormationClient({
    endpoint: 'http://localhost',
    region: 'eu-west-3',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    maxAttempts: 1,
    requestHandler,
    ...config,
  });
  return { client, requests };
}
