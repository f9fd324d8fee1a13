/** Sentences a treasury user reads when a call fails: what happened and what to do next. */
import type { ApiErrorKind } from './errors';
import type { TransportFailure } from './transport';

const BY_KIND: Record<string, string> = {
  auth: 'The service rejected the credentials. Check the merchant key and secret of this profile.',
  hash: 'The service could not verify the request hash. Check the secret and the hash scheme of this profile.',
  rate_limited: 'The service is limiting requests. Wait a moment and try again.',
  unavailable: 'The service is having trouble right now. Try again in a few minutes.',
  timeout: 'The service did not answer in time. Check the connection and try again.',
  tls: "The service's certificate could not be trusted. Check the profile's address; do not continue on an untrusted network.",
  network: 'The service could not be reached. Check the network connection and the profile address.',
  invalid_response:
    'The service answered in an unexpected format. Try again; if it persists, contact support with the request id.',
  api: 'The service refused the request.',
  http: 'The service answered with an unexpected error.',
  cancelled: 'Cancelled.',
};

const BY_TRANSPORT: Partial<Record<TransportFailure, string>> = {
  dns: "The service's host name could not be found. Check the profile address and the network.",
  refused: 'Nothing is answering at the profile address. Check the address and that the service is up.',
  connect_timeout: 'Could not connect to the service in time. Check the network connection.',
};

export function explain(kind: ApiErrorKind | 'hash', transport?: TransportFailure): string {
  return (transport && BY_TRANSPORT[transport]) || BY_KIND[kind] || BY_KIND.http!;
}
