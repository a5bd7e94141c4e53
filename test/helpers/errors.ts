// The AWS error a call fails with, in the three fields tests compare: code, message and HTTP status.
export interface CallError {
  code: string;
  message: string;
  status?: number;
}

export async function awsErrorOf(promise: Promise<unknown>): Promise<CallError> {
  try {
    await promise;
  } catch (err) {
    const e = err as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { code: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
  }
  throw new Error('expected the call to fail');
}
