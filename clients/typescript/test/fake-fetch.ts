// A fetch that answers from a script instead of the network, recording what it was sent; and a sleep that only records.
export interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

export type Answer = Response | Error | ((sent: Sent) => Response);

/** Answers the requests in order from `answers` (an Error is thrown as a network failure would be). */
export function scriptedFetch(answers: Answer[]): { fetch: (request: Request) => Promise<Response>; sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    async fetch(request) {
      const entry: Sent = { method: request.method, url: new URL(request.url), headers: request.headers, body: await request.text() };
      sent.push(entry);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected request ${request.method} ${request.url}`);
      if (answer instanceof Error) throw answer;
      return typeof answer === 'function' ? answer(entry) : answer;
    },
  };
}

export function recordingSleep(): { sleep: (ms: number) => Promise<void>; slept: number[] } {
  const slept: number[] = [];
  return { slept, sleep: async (ms) => void slept.push(ms) };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function apiError(status: number, type: string, code: string, extra: { param?: string; headers?: Record<string, string> } = {}): Response {
  const error = { type, code, message: `A ${code} for the test.`, ...(extra.param ? { param: extra.param } : {}) };
  return json(status, { error, request_id: `req_${code}` }, { 'x-request-id': `req_${code}`, ...extra.headers });
}
