// --backend: which AWS-compatible data plane backend providers and the proxy use (docs/backend.md).
import type { Logger } from 'pino';
import type { BackendEndpoint } from '../../resources/provider.js';
import { MotoBackend, UrlBackend } from './moto.js';
import { messageOf } from '../../domain/values.js';

export interface OpenedBackend {
  backend?: BackendEndpoint;
  /** Settles once the backend process is spawned; rejects when it cannot be (moto_server missing). */
  started: Promise<void>;
}

/** `moto` starts moto_server at once (it answers ~2 s later; the first use waits); a URL is used as it is. */
export function openBackend(
  options: { backend?: string; motoCommand?: string },
  account: string,
  log: Logger,
): OpenedBackend {
  const setting = options.backend?.trim();
  if (!setting) return { started: Promise.resolve() };
  if (setting === 'moto') {
    const moto = new MotoBackend({ command: options.motoCommand, account, log });
    const started = moto.start();
    started.catch((err: unknown) => log.error({ err: messageOf(err) }, 'the backend could not start'));
    return { backend: moto, started };
  }
  if (!/^https?:\/\/[^/]/.test(setting)) {
    const err = new Error(`--backend takes moto or an http(s) URL, not ${JSON.stringify(setting)}`);
    const started = Promise.reject(err);
    started.catch(() => {});
    return { started };
  }
  return { backend: new UrlBackend(setting), started: Promise.resolve() };
}
