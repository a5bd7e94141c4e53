// The error a call fails with: whole (thrownBy), or in the three fields tests compare: code, message and HTTP status.
export interface CallError {
  code: string;
  message: string;
  status?: number;
}

/** The error the promise rejects with; a promise that resolves fails the test. */
export async function thrownBy<E = unknown>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (err) {
    return err as E;
  }
  throw new Error('expected the call to fail');
}

export async function awsErrorOf(promise: Promise<unknown>): Promise<CallError> {
  const e = await thrownBy<{ name: string; message: string; $metadata?: { httpStatusCode?: number } }>(promise);
  return { code: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
}
