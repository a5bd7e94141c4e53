// template/transforms/macros: reading a macro function's answer as AWS reads it.
import { describe, it, expect } from 'vitest';
import { readMacroResponse } from '../../../template/transforms/macros.js';

const ID = '123456789012::M';
const read = (body: unknown, functionError: string | null = null) =>
  readMacroResponse(ID, 'r-1', typeof body === 'string' ? body : JSON.stringify(body), functionError);

describe('readMacroResponse', () => {
  it('takes the fragment of a success with the request id sent', () => {
    expect(read({ requestId: 'r-1', status: 'success', fragment: { A: 1 } })).toEqual({ fragment: { A: 1 } });
  });

  it.each([
    [
      'a status other than success, with a message',
      { requestId: 'r-1', status: 'SUCCESS', errorMessage: 'no' },
      `Transform ${ID} failed with: no`,
    ],
    [
      'a failure without a message',
      { requestId: 'r-1', status: 'failure' },
      `Transform ${ID} failed without an error message.`,
    ],
    [
      'another request id',
      { requestId: 'other', status: 'success', fragment: {} },
      `Received malformed response from transform ${ID}`,
    ],
    ['no fragment', { requestId: 'r-1', status: 'success' }, `Received malformed response from transform ${ID}`],
    ['no status', { requestId: 'r-1', fragment: {} }, `Received malformed response from transform ${ID}`],
    ['not JSON', 'oops', `Received malformed response from transform ${ID}`],
    ['a JSON list', [1], `Received malformed response from transform ${ID}`],
  ])('fails on %s', (_, body, failure) => {
    expect(read(body)).toEqual({ failure });
  });

  it('reports a function error with its errorMessage', () => {
    expect(read({ errorMessage: 'boom', errorType: 'Error' }, 'Unhandled')).toEqual({
      failure: `Transform ${ID} failed with: boom`,
    });
  });
});
