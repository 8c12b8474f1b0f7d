import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.ts';

describe('ApiError', () => {
  it('is an Error with its answer, made without a stack trace (an answer, not a fault)', () => {
    const error = new ApiError(404, 'rest_post_invalid_id', 'Invalid post ID.', { id: 7 });
    expect(error).toBeInstanceOf(Error);
    expect(error.toBody()).toEqual({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404, id: 7 } });
    expect(error.stack).toBe('Error: Invalid post ID.');
  });

  it('leaves other errors their stack traces', () => {
    new ApiError(400, 'rest_invalid_param', 'Invalid parameter(s): per_page');
    expect(new Error('a fault').stack?.split('\n').length).toBeGreaterThan(2);
  });
});
