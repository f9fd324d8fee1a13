/**
 * Schemas of the payment tools, plans, webhooks and classification channels. Every action carries a key the form
 * makes once per submission: a second call with the same key (a double click, a retry after a lost answer) gets the
 * first call's answer or its error, and never acts twice.
 */
import { z } from 'zod';
import { paymentMethods } from '../api/payment-info';
import { orPending } from '../approvals';
import { classification, classifyInput } from '../classification';
import { journalEntry } from '../journal';
import { conversion, currencyQuery, methodsQuery, processForm, processedPayment } from '../payment-tools';
import { createdPlan, planForm, planRecord } from '../plans';
import { updatedWebhook, webhookEdit, webhookList } from '../webhooks';
import type { DomainSchemas } from './contract';

const requestKey = z.string().min(8).max(64);

const methodGroups = z.object({
  netbanking: z.array(
    z.object({ code: z.string(), title: z.string(), healthy: z.boolean().nullable(), favourite: z.boolean() }),
  ),
  debitcard: z.array(z.object({ code: z.string(), title: z.string() })),
  creditcard: z.array(z.object({ code: z.string(), title: z.string() })),
  upi: z.array(z.object({ code: z.string(), title: z.string() })),
  flags: z.array(
    z.object({ key: z.string(), label: z.string(), on: z.boolean().nullable(), value: z.string().nullable() }),
  ),
  order: z.array(z.enum(['netbanking', 'debitcard', 'creditcard', 'upi'])),
});

export const toolsChannels = {
  /** The payment methods for an amount (rupees, sent as paise), currency and gateway, grouped as the listing is. */
  'tools.methods': {
    input: methodsQuery,
    output: z.object({ listing: paymentMethods, groups: methodGroups, requestId: z.string().nullable() }),
  },
  /** Process order (seamless checkout): starts a payment, once per key. */
  'tools.process': {
    input: z.object({ requestKey, order: processForm }).strict(),
    output: orPending(processedPayment),
  },
  'tools.currency': { input: currencyQuery, output: conversion },
} satisfies DomainSchemas<'tools'>;

export const plansChannels = {
  'plans.create': { input: z.object({ requestKey, plan: planForm }).strict(), output: orPending(createdPlan) },
  'plans.fetch': {
    input: z.object({ id: z.string().trim().min(1, 'must not be empty').max(64) }).strict(),
    output: planRecord,
  },
  /** Settles a create whose answer was lost: looks the plan up by the attempt's merchant reference id. */
  'plans.checkCreate': {
    input: z.object({ attemptSeq: z.number().int().positive() }).strict(),
    output: z.object({ check: journalEntry, plan: planRecord.nullable() }),
  },
} satisfies DomainSchemas<'plans'>;

export const webhooksChannels = {
  'webhooks.list': { input: z.object({ active: z.boolean().optional() }).strict(), output: webhookList },
  'webhooks.update': {
    input: z.object({ requestKey, change: webhookEdit }).strict(),
    output: orPending(updatedWebhook),
  },
} satisfies DomainSchemas<'webhooks'>;

export const classificationChannels = {
  /** Checked against the document's limits in main before anything is sent. */
  'classification.classify': { input: classifyInput, output: classification },
} satisfies DomainSchemas<'classification'>;
