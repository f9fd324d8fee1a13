/**
 * Triage of a date's settlement exceptions with the classification operation: for each record that breaks a
 * rule, the record's own fields and each broken rule's values go out as `state` (nothing else: no notes, no
 * assignee, no profile, no other record), with three questions — the likely cause (choice), whether it needs
 * escalation (noul) and its severity (score). The answers are stored with their probabilities and the model's
 * name; the cause becomes the exception's tag only when its probability reaches the threshold (the run's, else the
 * profile's setting).
 *
 * Within the documented limits (shared/api/classification.ts): 3 questions (1–4), 6 causes (≤ 20 options), 5
 * severity levels, and a body over 32 KiB is not sent (that record is listed with why). Requests go one at a
 * time. The client already retries a 429 (honouring Retry-After); past that, this waits longer and asks
 * again, a few times, before listing the record as not triaged.
 */
import { CLASSIFY_LIMITS, type ClassifyRequest } from '../../shared/api/classification';
import { RULES } from '../../shared/reconciliation';
import {
  TRIAGE_CAUSES,
  triageRequest,
  type TriageAnswer,
  type TriageRequest,
  type TriageSummary,
} from '../../shared/settlement-changes';
import type { CachedSettlement } from '../../shared/settlement-query';
import { ApiError, type MerchantApi } from '../api';
import type { Cache } from '../cache/database';
import { idRange } from '../cache/settlement-ids';

export const SEVERITY_LEVELS = [
  'Cosmetic: no money at stake',
  'Minor: a few rupees or a reference to fix',
  'Moderate: money is late or misstated',
  'Major: money is missing or settled wrongly',
  'Critical: a large amount is missing or a customer dispute is at risk',
] as const;

/** Waits after a 429 that outlived the client's own retries: 2 s, 4 s, 8 s, then the record is listed. */
export const RATE_LIMIT_WAITS_MS = [2_000, 4_000, 8_000] as const;

/** The record's named fields, as the service sent them (amounts in paise), and the rules it breaks. */
export function triageState(r: CachedSettlement): Record<string, unknown> {
  return {
    record: {
      pg: r.pg,
      pg_transaction_id: r.pg_transaction_id,
      order_id: r.order_id,
      order_date: r.order_date,
      settlement_date: r.settlement_date,
      utr: r.utr,
      order_status: r.order_status,
      pg_status: r.pg_status,
      payment_mode: r.payment_mode,
      amount: r.amount,
      mer_service_fee: r.mer_service_fee,
      mer_service_tax: r.mer_service_tax,
      merchant_subvention_amount: r.merchant_subvention_amount,
      cgst: r.cgst,
      igst: r.igst,
      sgst: r.sgst,
      settled_amount: r.settled_amount,
      dispute_id: r.dispute_id,
      description: r.description,
    },
    broken_rules: r.exceptions.map((e) => ({ rule: e.rule, description: RULES[e.rule], values: e.values })),
  };
}

export function triageQuestions(): ClassifyRequest['questions'] {
  return {
    cause: {
      type: 'choice',
      instructions: 'What is the most likely cause of this settlement exception?',
      criteria: { ...TRIAGE_CAUSES },
    },
    escalate: {
      type: 'noul',
      instructions: 'Does this exception need escalation to the gateway or the bank?',
      criteria: { true: 'Money is missing, settled wrongly or disputed', false: 'It will clear on its own' },
    },
    severity: { type: 'score', instructions: 'How severe is this exception?', criteria: [...SEVERITY_LEVELS] },
  };
}

/** The request for one record, or why it cannot be sent. */
export function triageRequestFor(r: CachedSettlement): { request: ClassifyRequest } | { tooLarge: number } {
  const request: ClassifyRequest = { state: triageState(r), questions: triageQuestions() };
  const bytes = Buffer.byteLength(JSON.stringify(request));
  return bytes > CLASSIFY_LIMITS.maxBodyBytes ? { tooLarge: bytes } : { request };
}

type Answers = Awaited<ReturnType<MerchantApi['classification']['classify']>>;

export function answerOf(response: Answers): TriageAnswer {
  const cause = response.answers.cause;
  const escalate = response.answers.escalate;
  const severity = response.answers.severity;
  if (cause?.type !== 'choice' || escalate?.type !== 'noul' || severity?.type !== 'score') {
    throw new ApiError({
      kind: 'invalid_response',
      operation: 'classify',
      message: 'answers of the wrong type',
      userMessage: 'The classification service answered the questions with the wrong kinds of answer.',
    });
  }
  return {
    cause: cause.choice,
    causeProbability: cause.probabilities[cause.choice] ?? cause.confidence,
    causeProbabilities: cause.probabilities,
    escalate: escalate.noul,
    escalateConfidence: escalate.confidence,
    severity: severity.score,
    severityProbability: severity.probabilities[String(severity.score)] ?? severity.confidence,
    model: response.model ?? 'unnamed model',
  };
}

export interface TriageOptions {
  api: { classification: Pick<MerchantApi['classification'], 'classify'> };
  cache: Pick<Cache, 'exceptions' | 'reconciliation'>;
  request: TriageRequest;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onProgress?: (done: number, of: number) => void;
}

const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export async function triageDate(options: TriageOptions): Promise<TriageSummary> {
  const q = triageRequest.parse(options.request);
  const sleep = options.sleep ?? realSleep;
  const { cache, api, signal } = options;
  const threshold = q.threshold ?? cache.reconciliation.settings().triageThreshold;
  const records = cache.exceptions.exceptionsOfDate(idRange(q.date, q.date), q.pg ?? null);
  const summary: TriageSummary = {
    date: q.date,
    exceptions: records.length,
    triaged: 0,
    tagged: 0,
    skipped: 0,
    failed: [],
    model: null,
    threshold,
  };
  let done = 0;
  for (const r of records) {
    if (signal?.aborted) break;
    const state = cache.exceptions.stateOf(r)!;
    options.onProgress?.(done++, records.length);
    if (state.state === 'resolved' || (state.triage !== null && !q.again)) {
      summary.skipped++;
      continue;
    }
    const built = triageRequestFor(r);
    if ('tooLarge' in built) {
      summary.failed.push({
        recordId: r.id,
        pgTransactionId: r.pg_transaction_id,
        reason: `the record is ${built.tooLarge.toLocaleString('en-IN')} bytes as a request, over the ${CLASSIFY_LIMITS.maxBodyBytes.toLocaleString('en-IN')}-byte limit`,
      });
      continue;
    }
    let answer: TriageAnswer | null = null;
    for (let attempt = 0; answer === null; attempt++) {
      try {
        answer = answerOf(await api.classification.classify(built.request, { signal }));
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.kind === 'cancelled') return summary;
        if (e.kind === 'rate_limited' && attempt < RATE_LIMIT_WAITS_MS.length) {
          await sleep(RATE_LIMIT_WAITS_MS[attempt]!, signal);
          if (signal?.aborted) return summary;
          continue;
        }
        summary.failed.push({ recordId: r.id, pgTransactionId: r.pg_transaction_id, reason: e.userMessage });
        // The service is not answering at all: the other records would fail the same way.
        if (e.kind === 'network' || e.kind === 'auth' || e.kind === 'timeout' || e.kind === 'tls') return summary;
        break;
      }
    }
    if (answer === null) continue;
    const tag = answer.causeProbability >= threshold ? answer.cause : null;
    cache.exceptions.saveTriage(r, answer, tag);
    summary.triaged++;
    if (tag !== null) summary.tagged++;
    summary.model = answer.model;
  }
  options.onProgress?.(records.length, records.length);
  return summary;
}
