/**
 * Every error code the contract and the real service use, with the HTTP status the real service
 * sends it with and a human message that says what to do. The client uses the messages; the
 * local service uses the statuses, so both agree with the hosted service.
 */
export interface ErrorCodeInfo {
  httpStatus: number;
  /** Short, actionable, never contains secrets. */
  message: string;
}

export const ErrorCode = {
  OK: 0,
  BAD_REQUEST: 100,
  RATE_LIMITED: 201,
  INTERNAL: 9999,
  INVALID_OPERATION: 100001,
  MODEL_GROUP_DEFAULT: 100112,
  EXPIRED_CREDENTIALS: 1002,
  INSUFFICIENT_AUTH: 1003,
  BAD_CREDENTIALS: 1004,
  JOB_FAILED: 210020,
  JOB_QUOTA_EXCEEDED: 210021,
  QUESTION_TOO_LONG: 210022,
  SOURCES_NOT_SYNCHED: 210023,
  TTS_TEXT_TOO_LONG: 210024,
  TOO_MANY_FILES: 210025,
  INVALID_ANALYSIS: 210026,
  INVALID_PARAMS: 300001,
  NO_PERMISSION: 300002,
  NOT_FOUND: 300003,
  BAD_EXTENSION: 300004,
  EMPTY_FILE: 300005,
  INSUFFICIENT_STORAGE: 300006,
  UPLOAD_FAILED: 300007,
  PRESIGN_ERROR: 300008,
  SESSION_LIMIT: 300009,
  CREATE_DATASOURCE_FAILED: 300011,
} as const;

export const ERROR_CODES: Readonly<Record<number, ErrorCodeInfo>> = {
  100: { httpStatus: 200, message: 'bad request: check the parameters' },
  201: { httpStatus: 429, message: 'rate limit reached: wait a moment and try again' },
  9999: { httpStatus: 500, message: 'internal error in the service: try again later' },
  100001: { httpStatus: 200, message: 'invalid operation for this resource' },
  100112: { httpStatus: 200, message: 'the model group must stay the default' },
  1002: { httpStatus: 403, message: 'expired credentials: create a new API key and sign in again' },
  1003: { httpStatus: 403, message: 'insufficient authorization: this key cannot access that resource' },
  1004: { httpStatus: 403, message: 'bad credentials: check the API key and sign in again' },
  210020: { httpStatus: 400, message: 'the job failed: try again or rephrase the question' },
  210021: { httpStatus: 400, message: 'job quota exceeded: wait for the quota to reset or upgrade the plan' },
  210022: { httpStatus: 400, message: 'question too long: keep it under 6000 characters' },
  210023: { httpStatus: 400, message: 'selected files are not synched yet: wait until processing finishes' },
  210024: { httpStatus: 400, message: 'text to speak is too long: keep it under 5000 characters' },
  210025: { httpStatus: 400, message: 'too many files selected: choose fewer data sources' },
  210026: { httpStatus: 400, message: 'invalid analysis request' },
  300001: { httpStatus: 400, message: 'invalid parameters' },
  300002: { httpStatus: 200, message: 'no permission for this resource' },
  300003: { httpStatus: 200, message: 'not found: it may have been deleted; refresh and try again' },
  300004: { httpStatus: 200, message: 'unsupported file extension' },
  300005: { httpStatus: 200, message: 'the file is empty' },
  300006: { httpStatus: 200, message: 'insufficient storage: delete data sources to free space' },
  300007: { httpStatus: 200, message: 'upload failed: try again' },
  300008: { httpStatus: 200, message: 'could not create a download link: try again' },
  300009: { httpStatus: 200, message: 'session limit reached: delete sessions first' },
  300011: { httpStatus: 200, message: 'failed to create the data source' },
};

/** The human message for a code, or a generic one naming the code. */
export function describeErrorCode(code: number): string {
  return ERROR_CODES[code]?.message ?? `service error ${code}`;
}

/** The HTTP status the real service uses for a code (200 when it reports in the envelope only). */
export function httpStatusForCode(code: number): number {
  return ERROR_CODES[code]?.httpStatus ?? 200;
}
