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
    /** WordPress's `additional_data`: earlier data of the same error (e.g. `term_exists` keeps the bare term id). */
    readonly additionalData?: unknown[],
  ) {
    // An answer, not a fault: where it was made is never shown, and capturing the stack took ~7% of a 404's
    // CPU (crawlers ask for records long gone). Errors that are faults keep theirs.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }

  toBody(): { code: string; message: string; data: { status: number; [key: string]: unknown }; additional_data?: unknown[] } {
    const body = { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
    return this.additionalData ? Object.assign(body, { additional_data: this.additionalData }) : body;
  }
}

/** One entry of `data.details`: the error a parameter's validator returned, as WordPress converts it. */
export interface ParamError {
  code: string;
  message: string;
  data: { status: number } | null;
}

/**
 * 400 naming every bad parameter, as WordPress's argument validation does. A validator that answers a
 * plain false (most of the reference's) leaves no `details` entry: the reference's own answer to
 * `per_page=0` has `"details":[]`. One that answers an error (e.g. `ticketed=true`) gets one, under its name.
 */
export function invalidParams(params: Record<string, string>, details: Record<string, ParamError> = {}): ApiError {
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
        details: Type.Optional(Type.Union([
          Type.Record(Type.String(), Type.Object({
            code: Type.String(),
            message: Type.String(),
            data: Type.Union([Type.Object({ status: Type.Integer() }, { additionalProperties: true }), Type.Null()]),
          })),
          Type.Array(Type.Unknown(), { maxItems: 0 }),
        ])),
        term_id: Type.Optional(Type.Integer()),
      },
      { additionalProperties: true },
    ),
    additional_data: Type.Optional(Type.Array(Type.Unknown())),
  },
  { title: 'Error' },
);
