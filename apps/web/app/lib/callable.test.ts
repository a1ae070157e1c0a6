import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALLABLE_TIMEOUT_MS } from '@skanova/shared/site/timing';
import {
  CallableClientError,
  INVALID_JSON_MESSAGE,
  MISSING_DATA_MESSAGE,
  callFunction,
  callableErrorMessage,
} from './callable';

// The browser side of the callable protocol (docs/product/calls-and-data.md#callable-protocol): answers, error codes, time-out and the
// order in which a visitor-facing message is chosen.

const CONTACT = {
  name: 'Ada',
  email: 'ada@example.com',
  subject: 'general',
  message: 'Hello there, a question.',
} as never;

function respond(body: BodyInit | null, status = 200, type = 'application/json') {
  return vi.fn<typeof fetch>(async () => new Response(body, { status, headers: { 'content-type': type } }));
}

const json = (value: unknown, status = 200) => respond(JSON.stringify(value), status);

async function failure(promise: Promise<unknown>): Promise<CallableClientError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CallableClientError);
  return error as CallableClientError;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('callFunction: request', () => {
  it('posts JSON { data } to /api/fn/<name> with the same-origin credentials', async () => {
    const fetchImpl = json({ result: { ok: true } });
    await callFunction('submitContactForm', CONTACT, { fetchImpl });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('/api/fn/submitContactForm');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
    expect(init?.credentials).toBe('same-origin');
    expect(JSON.parse(String(init?.body))).toEqual({ data: CONTACT });
  });

  it('sends null when there is no payload', async () => {
    const fetchImpl = json({ result: 1 });
    await callFunction('submitContactForm', undefined as never, { fetchImpl });
    expect(JSON.parse(String(fetchImpl.mock.calls[0]![1]?.body))).toEqual({ data: null });
  });
});

describe('callFunction: success', () => {
  it('reads the answer from `result`', async () => {
    await expect(
      callFunction('submitContactForm', CONTACT, { fetchImpl: json({ result: { ticketId: 't1' } }) }),
    ).resolves.toEqual({
      ticketId: 't1',
    });
  });

  it('reads the answer from `data`', async () => {
    await expect(
      callFunction('storePreInstallData', {} as never, { fetchImpl: json({ data: { trackingId: 'abc' } }) }),
    ).resolves.toEqual({
      trackingId: 'abc',
    });
  });

  it('accepts falsy answers (null, 0, false) as answers', async () => {
    await expect(callFunction('submitContactForm', CONTACT, { fetchImpl: json({ result: null }) })).resolves.toBeNull();
    await expect(callFunction('submitContactForm', CONTACT, { fetchImpl: json({ data: 0 }) })).resolves.toBe(0);
    await expect(callFunction('submitContactForm', CONTACT, { fetchImpl: json({ result: false }) })).resolves.toBe(
      false,
    );
  });

  it("says 'Response is not valid JSON object.' when a 200 body is not JSON", async () => {
    const error = await failure(
      callFunction('submitContactForm', CONTACT, { fetchImpl: respond('<html>ok</html>', 200, 'text/html') }),
    );
    expect(error.code).toBe('internal');
    expect(error.message).toBe(INVALID_JSON_MESSAGE);
    expect(INVALID_JSON_MESSAGE).toBe('Response is not valid JSON object.');
  });

  it("says 'Response is not valid JSON object.' when a 200 body is JSON but not an object", async () => {
    for (const body of ['"text"', '42', 'null']) {
      const error = await failure(callFunction('submitContactForm', CONTACT, { fetchImpl: respond(body) }));
      expect(error.code).toBe('internal');
      expect(error.message).toBe(INVALID_JSON_MESSAGE);
    }
  });

  it("says 'Response is missing data field.' when neither result nor data is present", async () => {
    const error = await failure(callFunction('submitContactForm', CONTACT, { fetchImpl: json({ ok: true }) }));
    expect(error.code).toBe('internal');
    expect(error.message).toBe(MISSING_DATA_MESSAGE);
    expect(MISSING_DATA_MESSAGE).toBe('Response is missing data field.');
  });
});

describe('callFunction: error bodies', () => {
  it('takes the code from the wire status (INVALID_ARGUMENT) and keeps message and details', async () => {
    const details = { fieldErrors: { email: ['errors.email'] } };
    const fetchImpl = json({ error: { status: 'INVALID_ARGUMENT', message: 'Invalid information.', details } }, 400);
    const error = await failure(callFunction('submitContactForm', CONTACT, { fetchImpl }));
    expect(error.code).toBe('invalid-argument');
    expect(error.message).toBe('Invalid information.');
    expect(error.details).toEqual(details);
  });

  it('takes the last path segment of a prefixed status (functions/not-found)', async () => {
    const error = await failure(
      callFunction('submitContactForm', CONTACT, {
        fetchImpl: json({ error: { status: 'functions/not-found', message: 'Nope' } }, 404),
      }),
    );
    expect(error.code).toBe('not-found');
  });

  it('lets details.code give the finer product code', async () => {
    const fetchImpl = json(
      { error: { status: 'FAILED_PRECONDITION', message: 'Too many codes.', details: { code: 'too-many-codes' } } },
      400,
    );
    const error = await failure(callFunction('submitContactForm', CONTACT, { fetchImpl }));
    expect(error.code).toBe('too-many-codes');
    expect(error.message).toBe('Too many codes.');
  });

  it('keeps the protocol code when details.code repeats it', async () => {
    const fetchImpl = json(
      { error: { status: 'RESOURCE_EXHAUSTED', message: 'Slow down', details: { code: 'resource-exhausted' } } },
      429,
    );
    expect((await failure(callFunction('submitContactForm', CONTACT, { fetchImpl }))).code).toBe('resource-exhausted');
  });

  it('trusts an error body even with HTTP 200', async () => {
    const error = await failure(
      callFunction('submitContactForm', CONTACT, {
        fetchImpl: json({ error: { status: 'PERMISSION_DENIED', message: 'No' } }, 200),
      }),
    );
    expect(error.code).toBe('permission-denied');
  });

  it('falls back to the HTTP status when the body status is not a known code', async () => {
    const error = await failure(
      callFunction('submitContactForm', CONTACT, {
        fetchImpl: json({ error: { status: 'WEIRD', message: 'x' } }, 503),
      }),
    );
    expect(error.code).toBe('unavailable');
  });

  it('answers internal for an unknown status in an error body with HTTP 200', async () => {
    const error = await failure(
      callFunction('submitContactForm', CONTACT, { fetchImpl: json({ error: { status: 'WEIRD' } }, 200) }),
    );
    expect(error.code).toBe('internal');
  });

  it('uses the code as the message when the server sent none', async () => {
    const error = await failure(
      callFunction('submitContactForm', CONTACT, {
        fetchImpl: json({ error: { status: 'INVALID_ARGUMENT', details: { code: 'odd-code' } } }, 400),
      }),
    );
    expect(error.code).toBe('odd-code');
    expect(error.message).toBe('odd-code');
  });
});

describe('callFunction: HTTP status table (docs/product/messages.md#error-codes-and-http-statuses) when the body carries no error', () => {
  const table: [number, string][] = [
    [400, 'invalid-argument'],
    [401, 'unauthenticated'],
    [403, 'permission-denied'],
    [404, 'not-found'],
    [409, 'aborted'],
    [429, 'resource-exhausted'],
    [499, 'cancelled'],
    [500, 'internal'],
    [501, 'unimplemented'],
    [503, 'unavailable'],
    [504, 'deadline-exceeded'],
    [502, 'internal'], // statuses outside the table are internal
  ];
  for (const [status, code] of table) {
    it(`${status} → ${code} (JSON body without error)`, async () => {
      const error = await failure(callFunction('submitContactForm', CONTACT, { fetchImpl: json({}, status) }));
      expect(error.code).toBe(code);
    });
    it(`${status} → ${code} (non-JSON body, e.g. a proxy page)`, async () => {
      const error = await failure(
        callFunction('submitContactForm', CONTACT, { fetchImpl: respond('<h1>oops</h1>', status, 'text/html') }),
      );
      expect(error.code).toBe(code);
    });
  }
});

describe('callFunction: transport failures', () => {
  it('answers internal when the network fails', async () => {
    const fetchImpl = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await failure(callFunction('submitContactForm', CONTACT, { fetchImpl }));
    expect(error.code).toBe('internal');
  });

  /** A fetch that never answers until its signal aborts, like the real one on a stalled connection. */
  const stalledFetch = vi.fn<typeof fetch>(
    (_url, init) =>
      new Promise<Response>((_resolve, reject) => {
        const abort = () => reject(new DOMException('Aborted', 'AbortError'));
        if (init?.signal?.aborted) abort();
        init?.signal?.addEventListener('abort', abort);
      }),
  );

  it('times out after 70 s by default with deadline-exceeded', async () => {
    vi.useFakeTimers();
    expect(CALLABLE_TIMEOUT_MS).toBe(70_000);
    const settled = vi.fn();
    const pending = failure(callFunction('submitContactForm', CONTACT, { fetchImpl: stalledFetch })).then((error) => {
      settled();
      return error;
    });
    await vi.advanceTimersByTimeAsync(69_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error.code).toBe('deadline-exceeded');
  });

  it('honours a shorter time-out', async () => {
    vi.useFakeTimers();
    const pending = failure(callFunction('submitContactForm', CONTACT, { fetchImpl: stalledFetch, timeoutMs: 1_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).code).toBe('deadline-exceeded');
  });

  it('times out while the body is still arriving', async () => {
    vi.useFakeTimers();
    const fetchImpl = vi.fn<typeof fetch>(async (_url, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"result":'));
          init?.signal?.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const pending = failure(callFunction('submitContactForm', CONTACT, { fetchImpl }));
    await vi.advanceTimersByTimeAsync(CALLABLE_TIMEOUT_MS);
    expect((await pending).code).toBe('deadline-exceeded');
  });

  it('answers cancelled when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = failure(
      callFunction('submitContactForm', CONTACT, { fetchImpl: stalledFetch, signal: controller.signal }),
    );
    controller.abort();
    expect((await pending).code).toBe('cancelled');
  });

  it('answers cancelled at once for an already aborted signal', async () => {
    const error = await failure(
      callFunction('submitContactForm', CONTACT, { fetchImpl: stalledFetch, signal: AbortSignal.abort() }),
    );
    expect(error.code).toBe('cancelled');
  });

  it('clears its timer after an answer', async () => {
    vi.useFakeTimers();
    await callFunction('submitContactForm', CONTACT, { fetchImpl: json({ result: 1 }) });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('callableErrorMessage (docs/product/messages.md order: translation → server message → string detail → generic)', () => {
  const translations: Record<string, string> = {
    'callable.invalid-argument': 'Informations invalides',
    'callable.internal': 'Erreur interne du serveur',
    'callable.missing-payment-method': 'Le moyen de paiement est requis',
    'callable.generic': 'Une erreur est survenue',
    'callable.invalidJson': 'Réponse JSON invalide',
    'callable.missingData': 'Champ de données manquant',
  };
  const t = (key: string) => translations[key] ?? `!${key}`;
  const exists = (key: string) => key in translations;
  const message = (error: unknown) => callableErrorMessage(error, t, exists);

  it('uses the translation of the code first', () => {
    expect(message(new CallableClientError('invalid-argument', 'Server text'))).toBe('Informations invalides');
  });

  it('uses the translation of the finer details.code', () => {
    expect(
      message(new CallableClientError('missing-payment-method', 'Server text', { code: 'missing-payment-method' })),
    ).toBe('Le moyen de paiement est requis');
  });

  it('then the server message', () => {
    expect(message(new CallableClientError('unimplemented', 'Not there yet'))).toBe('Not there yet');
  });

  it('then a plain-string detail', () => {
    expect(message(new CallableClientError('unimplemented', 'unimplemented', 'Detail text'))).toBe('Detail text');
  });

  it('then the generic message', () => {
    expect(message(new CallableClientError('unimplemented', 'unimplemented'))).toBe('Une erreur est survenue');
    expect(message(new CallableClientError('unimplemented', 'unimplemented', { nested: true }))).toBe(
      'Une erreur est survenue',
    );
    expect(message(new Error('boom'))).toBe('Une erreur est survenue');
    expect(message('boom')).toBe('Une erreur est survenue');
  });

  it('translates the client-side protocol messages', () => {
    expect(message(new CallableClientError('internal', INVALID_JSON_MESSAGE))).toBe('Réponse JSON invalide');
    expect(message(new CallableClientError('internal', MISSING_DATA_MESSAGE))).toBe('Champ de données manquant');
  });

  it('end to end: an unknown finer code without a server message falls to the string detail, never the raw code', async () => {
    const fetchImpl = json({ error: { status: 'INVALID_ARGUMENT', details: { code: 'odd-code' } } }, 400);
    const error = await failure(callFunction('submitContactForm', CONTACT, { fetchImpl }));
    expect(message(error)).toBe('Une erreur est survenue');
  });

  it('end to end: a 503 proxy page shows the translation of unavailable, if any, else generic', async () => {
    const error = await failure(
      callFunction('submitContactForm', CONTACT, { fetchImpl: respond('<h1>down</h1>', 503, 'text/html') }),
    );
    expect(error.code).toBe('unavailable');
    expect(message(error)).toBe('Une erreur est survenue');
    expect(
      callableErrorMessage(
        error,
        (key) => (key === 'callable.unavailable' ? 'Service indisponible' : key),
        () => true,
      ),
    ).toBe('Service indisponible');
  });

  it('works with the real catalogue in both languages', async () => {
    const languages = {
      fr: await import('@skanova/shared/i18n/fr/common.json'),
      en: await import('@skanova/shared/i18n/en/common.json'),
    };
    for (const [lang, module] of Object.entries(languages)) {
      const catalogue = (module.default as { callable: Record<string, string> }).callable;
      const real = (error: unknown) =>
        callableErrorMessage(
          error,
          (key) => catalogue[key.replace('callable.', '')] ?? key,
          (key) => key.replace('callable.', '') in catalogue,
        );
      for (const code of [
        'invalid-argument',
        'not-found',
        'internal',
        'unavailable',
        'deadline-exceeded',
        'resource-exhausted',
      ]) {
        const text = real(new CallableClientError(code, code));
        expect(text, `${lang} ${code}`).toBeTruthy();
        expect(text, `${lang} ${code}`).not.toBe(code);
      }
      expect(real(new CallableClientError('deadline-exceeded', 'deadline-exceeded'))).toBe(
        catalogue['deadline-exceeded'],
      );
      if (lang === 'en')
        expect(real(new CallableClientError('deadline-exceeded', 'x'))).toBe('The operation timed out');
    }
  });
});
