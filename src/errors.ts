import { Type } from 'typebox';

/**
 * The one error type of the API. The central handler writes it as the WordPress REST body
 * `{code, message, data: {status, ...data}}`, which existing clients of the reference parse.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toBody(): { code: string; message: string; data: { status: number; [key: string]: unknown } } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }
}

/** 400 naming every bad parameter, as WordPress's argument validation does. */
export function invalidParams(params: Record<string, string>, details: Record<string, unknown> = {}): ApiError {
  return new ApiError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {
    params,
    // WordPress (PHP) sends an empty map as `[]`; clients of the reference see exactly that.
    details: Object.keys(details).length > 0 ? details : [],
  });
}

export function invalidParam(name: string, reason = 'Invalid parameter.'): ApiError {
  return invalidParams({ [name]: reason });
}

export function missingParams(names: string[]): ApiError {
  return new ApiError(400, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, {
    params: names,
  });
}

/** 401 for an anonymous caller, 403 for a signed-in caller without the capability. */
export function forbidden(signedIn: boolean): ApiError {
  return new ApiError(signedIn ? 403 : 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

export function noRoute(): ApiError {
  return new ApiError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
}

export function notFound(code: string, message: string): ApiError {
  return new ApiError(404, code, message);
}

export function gone(code: string, message: string): ApiError {
  return new ApiError(410, code, message);
}

export function notAccessible(code: string, message: string): ApiError {
  return new ApiError(403, code, message);
}

/** The error body every failure is sent as (documented once in the OpenAPI document). */
export const ErrorSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    data: Type.Object(
      {
        status: Type.Integer(),
        params: Type.Optional(Type.Union([Type.Record(Type.String(), Type.String()), Type.Array(Type.String())])),
        details: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Array(Type.Unknown())])),
        term_id: Type.Optional(Type.Integer()),
      },
      { additionalProperties: true },
    ),
  },
  { title: 'Error' },
);
