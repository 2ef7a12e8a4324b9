// The providers as the Point of sale page (D26) speaks of them: Square's and Toast's words (ProviderText: its secrets,
// its places of business, where its URL goes, its own words for the log's outcomes).
import type { paths } from '../api/schema';

export type Connection = paths['/dashboard/api/integrations/{id}']['get']['responses']['200']['content']['application/json'];
export type Provider = Connection['provider'];
export type Outcome = paths['/dashboard/api/integrations/{id}/log']['get']['responses']['200']['content']['application/json']['data'][number]['outcome'];

/** Each outcome of the log in plain words, and the colour it is written in (grape: needs you; red: refused or given up). */
export const OUTCOME_WORDS: Record<Outcome, { words: string; color: string }> = {
  applied: { words: 'Applied: the guest earned on it', color: 'teal' },
  refunded: { words: 'Refunded', color: 'teal' },
  reversed: { words: 'Reversed', color: 'teal' },
  replayed: { words: 'Already done: sent again, nothing changed', color: 'gray' },
  waiting: { words: "Waiting for the order's other payments", color: 'blue' },
  queued: { words: 'Queued: it will be done in a moment', color: 'blue' },
  ignored: { words: 'Nothing applied', color: 'gray' },
  unmatched_guest: { words: 'No member matches this guest', color: 'grape' },
  ambiguous_guest: { words: 'More than one member matches this guest', color: 'grape' },
  unknown_location: { words: 'Location not mapped to a venue', color: 'grape' },
  bad_signature: { words: 'Refused: not sent with this connection’s credentials', color: 'red' },
  bad_payload: { words: 'Could not be read', color: 'red' },
  provider_error: { words: 'The point of sale did not answer: trying again later', color: 'cyan' },
  failed: { words: 'Failed: gave up', color: 'red' },
};

/** A write-only setting as the page asks for it and shows it (…last4); `generated`: the server can draw a new one. */
export interface SecretField {
  key: 'access_token' | 'webhook_signature_key' | 'api_key';
  label: string;
  /** The label within a sentence: Replace access token, New API key. */
  noun: string;
  help: string;
  optional: boolean;
  generated?: { warning: string };
}

/** What the page says of one provider: its secrets, its places of business, its log's words, where its URL goes. */
export interface ProviderText {
  name: string;
  /** The wizard's four steps, as the Stepper labels them (name, credentials, places, URL). */
  steps: readonly { label: string; description: string }[];
  /** Who is found how, and what earns: a line under the page's title. */
  about: string;
  secrets: readonly SecretField[];
  place: {
    /** One place, as a button names it ("location": Add location, Remove location L1). */
    noun: string;
    title: string;
    label: string;
    placeholder: string;
    intro: string;
    /** Where the owner finds a place's id. */
    where: string;
    unmapped: string;
    missing: string;
    /** How the provider writes an id (Toast's GUIDs in lower case), so the row and the server's answer agree. */
    normalise: (id: string) => string;
  };
  /** The outcomes the provider words its own way. */
  outcomes: Partial<Record<Outcome, string>>;
  url: {
    /** The card's heading over the URL. */
    title: string;
    /** Why localhost will not do: who calls from the internet. */
    caller: string;
    /** "The URL to … then shows here." */
    give: string;
    how: string;
    after: string;
  };
  connected: string;
  paused: string;
  failing: string;
  deleted: string;
}

const SQUARE: ProviderText = {
  name: 'Square',
  steps: [
    { label: 'Name', description: 'Which till' },
    { label: 'Secrets', description: 'From Square' },
    { label: 'Locations', description: 'Which venue' },
    { label: 'URL', description: 'Paste into Square' },
  ],
  about: 'Square: the guest is found by the phone on their Square customer profile, or a card number in its reference id; nobody is enrolled or guessed.',
  secrets: [
    { key: 'access_token', label: 'Access token', noun: 'access token', help: "From Square's Developer Dashboard: your application → Credentials (production). It needs PAYMENTS_READ, ORDERS_READ and CUSTOMERS_READ.", optional: false },
    {
      key: 'webhook_signature_key',
      label: 'Webhook signature key',
      noun: 'webhook signature key',
      help: "From Square's Developer Dashboard: your application → Webhooks → your subscription → Signature key. No subscription yet? Leave it empty, make the subscription with the URL of the last step, then add the key here.",
      optional: true,
    },
  ],
  place: {
    noun: 'location',
    title: 'Locations',
    label: 'Square location ID',
    placeholder: 'L88917AVBK2S5',
    intro: 'Each Square location is one of your venues: a payment there earns at that venue, under its rules.',
    where: 'Square’s location IDs are in its Dashboard under Account & Settings → Business → Locations (each location’s “Location ID”).',
    unmapped: 'No location mapped: payments are logged as “Square location not mapped to a venue” and earn nothing until you map their location.',
    missing: "Type Square's location ID, or remove the row.",
    normalise: (id) => id.trim(),
  },
  outcomes: {
    unknown_location: 'Square location not mapped to a venue',
    bad_signature: 'Refused: not signed by Square',
    provider_error: 'Square did not answer: trying again later',
  },
  url: {
    title: 'URL to paste into Square',
    caller: 'Square sends payments from the internet',
    give: 'The URL to paste into Square',
    how: 'In Square’s Developer Dashboard, open your application → Webhooks → Add subscription, paste this URL, and choose the events payment.created, payment.updated, refund.created and refund.updated.',
    after: 'The subscription’s signature key must be the webhook signature key saved here: if Square shows another one, replace it above.',
  },
  connected: 'Last step: give Square the URL to send its payments to.',
  paused: 'Paused: Square’s calls are still answered and logged, but nothing is applied to guests’ cards until you resume.',
  failing:
    'Square refuses the access token or keeps failing: payments are not being applied. Check the access token in Square’s Developer Dashboard and replace it below; once a call succeeds again this goes away, and the entries below can be tried again.',
  deleted: 'Remove the webhook subscription in Square’s Developer Dashboard too.',
};

/** A generated Toast key, shown once: what to do with it. */
export const TOAST_KEY_WARNING =
  'Copy the key now and send it to Toast’s integrations team: it is shown this once. Afterwards this page shows only its last four characters.';

const TOAST: ProviderText = {
  name: 'Toast',
  steps: [
    { label: 'Name', description: 'Which till' },
    { label: 'API key', description: 'Toast sends it' },
    { label: 'Restaurants', description: 'Which venue' },
    { label: 'Send to Toast', description: 'URL and key' },
  ],
  about: 'Toast: staff find the guest by phone from the loyalty button on Toast’s till, or sign them up there; each paid check then earns.',
  secrets: [
    {
      key: 'api_key',
      label: 'API key',
      noun: 'API key',
      help: 'The key Toast sends with every call. Toast’s calls with the old key are refused as soon as the new one is saved: agree the moment with Toast’s integrations team.',
      optional: false,
      generated: { warning: TOAST_KEY_WARNING },
    },
  ],
  place: {
    noun: 'restaurant',
    title: 'Restaurants',
    label: 'Toast restaurant GUID',
    placeholder: '5a401af8-d2e2-4090-8c45-9f87b8b6c4d1',
    intro: 'Each Toast restaurant is one of your venues: its checks earn at that venue, under its rules.',
    where:
      'Toast does not tell us your restaurants: type each one’s GUID, the 36-character id Toast gives it (ask Toast’s integrations team or your Toast admin). Toast’s calls from a restaurant not listed here are refused.',
    unmapped: 'No restaurant mapped: Toast’s calls are refused as from an unknown restaurant until you map one.',
    missing: "Type the restaurant's Toast GUID, or remove the row.",
    // Toast writes its GUIDs in lower case, and sends them so in Toast-Restaurant-External-ID.
    normalise: (id) => id.trim().toLowerCase(),
  },
  outcomes: {
    bad_signature: 'Refused: not sent with this connection’s API key',
    failed: 'Refused: Toast was told why',
  },
  url: {
    title: 'URL to give Toast',
    caller: 'Toast’s tills call from the internet',
    give: 'The URL to give Toast',
    how: 'Send this URL to Toast’s integrations team as your loyalty endpoint: Toast’s tills call it for every loyalty look-up, redemption and paid check of the restaurants mapped here.',
    after: 'Toast sends the API key with every call: if Toast was given another key, replace it under Secrets.',
  },
  connected: 'Last step: send Toast’s integrations team the URL and the API key below.',
  paused: 'Paused: Toast’s tills are told the restaurant is not known, so staff cannot look guests up or apply loyalty until you resume.',
  failing: 'Toast’s calls keep failing on this server: loyalty is not being applied. The log below says why.',
  deleted: 'Ask Toast’s integrations team to stop calling its URL too.',
};

export const PROVIDER_TEXT: Record<Provider, ProviderText> = { square: SQUARE, toast: TOAST };

/** An outcome in the provider's words, else the page's. */
export const wordsOf = (outcome: Outcome, text: ProviderText) => text.outcomes[outcome] ?? OUTCOME_WORDS[outcome]?.words ?? outcome;
