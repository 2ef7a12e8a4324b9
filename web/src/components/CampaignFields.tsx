// What the new-campaign form and the edit dialog both ask: when a bonus holds (days and hours in each venue's time),
// from when to when it runs (typed in the venue's time), and its venues.
import { Checkbox, Group, MultiSelect, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Campaign, Chain } from '../api';
import { instantOf, localInput } from '../dates';

export const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export interface ScheduleValues {
  allDay: boolean;
  days: string[];
  from: string;
  to: string;
}

export interface PeriodValues {
  starts: string;
  ends: string;
}

export const scheduleValues = (c?: Campaign): ScheduleValues =>
  c?.schedule
    ? { allDay: false, days: c.schedule.days_of_week.map(String), from: c.schedule.from, to: c.schedule.to }
    : { allDay: c !== undefined, days: [], from: '15:00', to: '18:00' };

export const scheduleOf = (v: ScheduleValues) => (v.allDay ? null : { days_of_week: v.days.map(Number), from: v.from, to: v.to });

export const periodValues = (timezone: string, c?: Campaign): PeriodValues => ({ starts: localInput(c?.starts_at, timezone), ends: localInput(c?.ends_at, timezone) });

/**
 * The start and end to send: each typed one as the instant it is in the venue; one left as `before` showed it is not
 * sent (a minute-wide field would move seconds, or a repeated hour's second pass, to something nobody chose).
 */
export function periodOf(v: PeriodValues, timezone: string, before?: PeriodValues) {
  const instant = (typed: string) => (typed ? instantOf(typed, timezone) : null);
  return {
    ...(before?.starts === v.starts ? {} : { starts_at: instant(v.starts) }),
    ...(before?.ends === v.ends ? {} : { ends_at: instant(v.ends) }),
  };
}

/** The server names a schedule's fields schedule.from and so on; a period's starts_at; the form's are plain. */
export const fieldOf = (param: string) =>
  param.startsWith('schedule.days') ? 'days' : param === 'starts_at' ? 'starts' : param === 'ends_at' ? 'ends' : param.replace(/^schedule\./, '');

export function ScheduleFields<T extends ScheduleValues>({ form, timezone }: { form: UseFormReturnType<T>; timezone: string }) {
  const f = form as unknown as UseFormReturnType<ScheduleValues>;
  return (
    <>
      <Checkbox label="All day, every day" {...f.getInputProps('allDay', { type: 'checkbox' })} />
      {!f.values.allDay && (
        <>
          <Checkbox.Group label="Days" description={`Times are each venue's local time (${timezone} here)`} {...f.getInputProps('days')}>
            <Group mt="xs">
              {DAYS.map((d, i) => (
                <Checkbox key={d} value={String(i + 1)} label={d} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group grow>
            <TextInput type="time" label="From" {...f.getInputProps('from')} />
            <TextInput type="time" label="Until" description="Earlier than From: runs past midnight" {...f.getInputProps('to')} />
          </Group>
        </>
      )}
    </>
  );
}

export function PeriodFields<T extends PeriodValues>({ form, timezone }: { form: UseFormReturnType<T>; timezone: string }) {
  const f = form as unknown as UseFormReturnType<PeriodValues>;
  return (
    <Group grow align="flex-start">
      <TextInput type="datetime-local" label="Starts" description={`Empty: at once (${timezone} time)`} {...f.getInputProps('starts')} />
      <TextInput type="datetime-local" label="Ends" description="Empty: no end" {...f.getInputProps('ends')} />
    </Group>
  );
}

export function VenueField<T extends { venue_ids: string[] }>({ form, chain }: { form: UseFormReturnType<T>; chain: Chain }) {
  const f = form as unknown as UseFormReturnType<{ venue_ids: string[] }>;
  if (chain.venues.length < 2) return null;
  return <MultiSelect label="Venues" description="None chosen: every venue" data={chain.venues.map((x) => ({ value: x.id, label: x.name }))} {...f.getInputProps('venue_ids')} />;
}
