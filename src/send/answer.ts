// The answer checked against what was sent: a redirect or a 4xx is a rejection, and a 2xx counts
// only when its body confirms the number of records.
import type { KindInfo } from '../contract/kinds.js';
import { parseSuccessCount } from '../contract/message.js';
import { ServiceRejected, ServiceUnreachable, ServiceUnverified, type UploadError } from '../errors.js';
import { plainText, serviceSaid } from './reasons.js';
import type { Token } from './config.js';

export interface ServiceAnswer {
  readonly status: number;
  readonly message: string;
}

/** A service's message is kept to a readable length: a report is no place for a megabyte of it. */
export const MAX_SERVICE_MESSAGE = 1000;

export function clip(text: string, max = MAX_SERVICE_MESSAGE): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** The service's `message`, as plain text: its escapes shown, never obeyed, wherever it is printed. */
export function serviceMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' ? plainText(body.message, MAX_SERVICE_MESSAGE) : undefined;
  } catch {
    return undefined;
  }
}

export function checkAnswer(
  req: { readonly info: KindInfo; readonly token: Token },
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  sent: number,
  truncated = false,
  unreadable?: string,
): ServiceAnswer {
  const said = serviceMessage(text);
  const quoted = said ? `: "${clip(said, 300)}"` : '';
  // The service's own reasons travel with the error, to the screen, the report and the history.
  const reasons = status >= 400 ? serviceSaid(text) : undefined;
  const told = <E extends UploadError>(err: E): E => {
    err.said = reasons;
    return err;
  };
  if (status >= 300 && status < 400) {
    const given = [headers.location].flat()[0];
    const location = given === undefined ? undefined : plainText(given);
    throw new ServiceRejected(
      'REDIRECT',
      `the service answered ${status} redirecting to ${location ?? '(no Location)'}; redirects are not followed, so nothing was sent there`,
      'use the final address as --base-url if it is right',
      status,
      said,
    );
  }
  if (status === 401 || status === 403) {
    throw told(
      new ServiceRejected(
        'UNAUTHORIZED',
        `the service refused the access token (${status}${quoted}); the token came from ${req.token.from}`,
        `check the token in ${req.token.from}`,
        status,
        said,
      ),
    );
  }
  if (status >= 400 && status < 500) {
    throw told(
      new ServiceRejected(
        'REJECTED',
        `the service rejected the upload with ${status}${quoted}`,
        'nothing was changed; fix what the service names and run again',
        status,
        said,
      ),
    );
  }
  if (status >= 500) {
    throw told(
      new ServiceUnreachable(
        'SERVER_ERROR',
        `the service failed with ${status}${quoted}`,
        'run again later; a full replacement is safe to repeat',
        'unreachable',
        { status, message: said ?? '' },
      ),
    );
  }
  if (unreadable !== undefined) {
    throw new ServiceUnverified(
      'ANSWER_UNCONFIRMED',
      `the service answered ${status} but its body cannot be read: ${unreadable}, so the upload cannot be confirmed`,
      'run the same upload again (a full replacement is safe to repeat), or look in the scheduling application whether a record this upload added or changed is there (the service offers no way to read what it holds); the snapshot was not updated',
      status,
      undefined,
    );
  }
  if (truncated) {
    throw new ServiceUnverified(
      'ANSWER_UNCONFIRMED',
      `the service answered ${status} with more than 1 MiB, which is not a {"message", "status"} answer, so the upload cannot be confirmed`,
      'run the same upload again (a full replacement is safe to repeat), or look in the scheduling application whether a record this upload added or changed is there (the service offers no way to read what it holds); the snapshot was not updated',
      status,
      said,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const ok =
    body !== null &&
    typeof body === 'object' &&
    typeof (body as { message?: unknown }).message === 'string' &&
    typeof (body as { status?: unknown }).status === 'number';
  if (!ok) {
    throw new ServiceUnverified(
      'ANSWER_UNCONFIRMED',
      `the service answered ${status} but not with {"message", "status"}, so the upload cannot be confirmed`,
      'run the same upload again (a full replacement is safe to repeat), or look in the scheduling application whether a record this upload added or changed is there (the service offers no way to read what it holds); the snapshot was not updated',
      status,
      said,
    );
  }
  const { status: bodyStatus } = body as ServiceAnswer;
  const message = plainText((body as ServiceAnswer).message, MAX_SERVICE_MESSAGE);
  // The body repeats the HTTP status (docs/service-interface.md §4: "status (number, 200)").
  if (bodyStatus !== status) {
    throw new ServiceUnverified(
      'ANSWER_UNCONFIRMED',
      `the service answered HTTP ${status} but its body says status ${bodyStatus} ("${clip(message, 300)}"), so the upload cannot be confirmed`,
      'run the same upload again (a full replacement is safe to repeat), or look in the scheduling application whether a record this upload added or changed is there (the service offers no way to read what it holds); the snapshot was not updated',
      status,
      message,
    );
  }
  const count = parseSuccessCount(req.info, message);
  if (count !== sent) {
    const what =
      count === undefined ? `"${clip(message, 300)}", which is not "${sent} ${req.info.noun}(s) uploaded"` : `that it uploaded ${count} ${req.info.noun}(s)`;
    throw new ServiceUnverified(
      'ANSWER_UNCONFIRMED',
      `the service answered ${what}, but ${sent} ${req.info.noun}(s) were sent`,
      'run the same upload again (a full replacement is safe to repeat), or look in the scheduling application whether a record this upload added or changed is there (the service offers no way to read what it holds); the snapshot was not updated',
      status,
      message,
    );
  }
  return { status, message };
}
