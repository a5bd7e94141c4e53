// A bare awsQuery POST over a keep-alive socket: the server's own latency without the SDK's signing and parsing.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Resolves with the HTTP status once the whole answer has arrived. */
export function rawQuery(endpoint, params) {
  const body = new URLSearchParams({ Version: '2010-05-15', ...params }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      endpoint,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const closeRawAgent = () => agent.destroy();
