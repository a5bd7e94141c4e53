// An HTTPS door to cfn-local's own routes, for ResponseURLs that handlers PUT to with `https.request` (the CDK's
// provider framework, AWS's cfn-response): a self-signed certificate for 127.0.0.1 made with openssl on first
// need, trusted by the functions through NODE_EXTRA_CA_CERTS / SSL_CERT_FILE (runtime/contract.ts).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

// The system's CA bundles (Debian/Ubuntu, Fedora/RHEL, Alpine, macOS via Homebrew's openssl).
const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/cert.pem',
  '/usr/local/etc/openssl/cert.pem',
];

function openssl(args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('openssl', args, { timeout: 30_000 }, (err) => {
      if (err) reject(new Error(`openssl ${args[0]}: ${err.message}`));
      else resolve();
    }),
  );
}

export interface TlsDoor {
  /** https://127.0.0.1:<port> */
  base: string;
  /** The certificate plus the system's CAs: what SSL_CERT_FILE must name so other HTTPS keeps working. */
  caBundle: string;
  /** The certificate alone (NODE_EXTRA_CA_CERTS adds to node's own CAs). */
  cert: string;
  server: Server;
}

/** Starts the HTTPS listener, or undefined when openssl is missing (ResponseURLs then stay http). */
export async function openTlsDoor(
  folder: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TlsDoor | undefined> {
  const key = join(folder, 'response-url.key');
  const cert = join(folder, 'response-url.crt');
  try {
    await openssl([
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '825',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      '/CN=cfn-local',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ]);
  } catch {
    return undefined;
  }
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const system = SYSTEM_BUNDLES.find((f) => existsSync(f));
  const caBundle = join(folder, 'ca-bundle.pem');
  writeFileSync(caBundle, `${system ? readFileSync(system, 'utf8') : ''}\n${readFileSync(cert, 'utf8')}`);
  return { base: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caBundle, cert, server };
}
