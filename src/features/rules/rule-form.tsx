import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import * as z from 'zod/mini';
import { browserZone } from '../../api/activity/activity-api';
import { useSavedViews } from '../../api/views/view-queries';
import { CheckboxField, FormField } from '../../components/form-field';
import { ErrorBanner } from '../../components/error-banner';
import { useCreateRule, useUpdateRule } from '../../api/rules/rules-mutations';
import type { Rule, RuleDefinition } from '../../api/rules/rules-api';
import { scopeSummary } from './rule-words';
import { scopeFromView } from './scope-from-view';
import { Options } from '../../components/options';
import { DurationOptions } from '../../components/duration-options';

const ALL = '';
/** Editing: the rule's listings as they are (not re-read from a view). */
const KEEP = '__keep__';
const number = (min: number, max: number, words: string) =>
  z.string().check(
    z.refine((text) => {
      const value = Number(text);
      return text.trim() !== '' && Number.isFinite(value) && value >= min && value <= max;
    }, words),
  );
const wholeNumber = (min: number, max: number, words: string) =>
  z
    .string()
    .check(
      z.refine(
        (text) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max,
        words,
      ),
    );
const amount = z
  .string()
  .check(
    z.refine((text) => /^\d{1,7}(\.\d{1,2})?$/.test(text.trim()), 'Enter an amount like 15.00'),
  );
const percent = (min: number, max: number) =>
  number(min, max, `Enter a percentage from ${min} to ${max}`).check(
    z.refine((text) => /^\d+(\.\d{1,2})?$/.test(text.trim()), 'At most 2 decimals'),
  );

/** The form as typed: text fields, turned into a rule on submit. */
const RuleForm = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'Name the rule'), z.maxLength(80, 'At most 80 characters')),
  view: z.string(),
  kind: z.enum(['markdown', 'offer_floor', 'sale', 'relist']),
  afterDays: wholeNumber(0, 3650, 'Enter days from 0'),
  stepPercent: percent(0.01, 75),
  everyDays: wholeNumber(1, 365, 'Enter days from 1 to 365'),
  ending: z.enum(['cent', '99', 'whole']),
  offerPercent: percent(1, 100),
  turnOnAfterDays: z.string(),
  salePercent: percent(1, 75),
  startsAt: z.string(),
  endsAt: z.string(),
  durationHours: z.enum(['168', '336', '504', '720']),
  feePercent: percent(0, 50),
  marginPercent: percent(0, 1000),
  fixed: amount,
  noCostFixed: z.boolean(),
  maxListings: wholeNumber(1, 10_000, 'Enter 1 to 10,000'),
  skipEditedDays: wholeNumber(0, 365, 'Enter days from 0 to 365'),
  daily: z.boolean(),
  time: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time like 06:00')),
});
type RuleFormValues = z.infer<typeof RuleForm>;

const zone = () => browserZone() || 'UTC';

/** A typed field: its name, label, keyboard and hint. */
type Field = readonly [keyof RuleFormValues, string, 'numeric' | 'decimal', string?];
const ACTION_FIELDS: Record<RuleFormValues['kind'], readonly Field[]> = {
  markdown: [
    ['afterDays', 'After days listed', 'numeric'],
    ['stepPercent', 'Lower by (%)', 'decimal'],
    ['everyDays', 'Every (days)', 'numeric'],
  ],
  offer_floor: [
    ['offerPercent', 'Minimum offer (% of price)', 'decimal'],
    [
      'turnOnAfterDays',
      'Turn offers on after (days)',
      'numeric',
      'Empty leaves offers as they are.',
    ],
  ],
  sale: [['salePercent', 'Sale (% off)', 'decimal']],
  relist: [],
};
const FLOOR_FIELDS: readonly Field[] = [
  ['feePercent', 'Platform fee (%)', 'decimal'],
  ['marginPercent', 'Least margin over cost (%)', 'decimal'],
  ['fixed', 'Nor below ($)', 'decimal'],
];
const RUN_FIELDS: readonly Field[] = [
  ['maxListings', 'At most listings per run', 'numeric'],
  ['skipEditedDays', 'Leave alone if a person edited it within (days)', 'numeric'],
];

function definitionOf(
  values: RuleFormValues,
  views: { name: string; search: string }[],
  kept?: RuleDefinition,
): RuleDefinition {
  const view = views.find((v) => v.name === values.view);
  const scope = view
    ? scopeFromView(view.name, view.search).scope
    : values.view === KEEP && kept
      ? kept.scope
      : {};
  const ending = values.ending;
  const action: RuleDefinition['action'] =
    values.kind === 'markdown'
      ? {
          kind: 'markdown',
          afterDays: Number(values.afterDays),
          step: { kind: 'percent', percent: Number(values.stepPercent) },
          everyDays: Number(values.everyDays),
          ending,
        }
      : values.kind === 'offer_floor'
        ? {
            kind: 'offer_floor',
            percent: Number(values.offerPercent),
            turnOnAfterDays:
              values.turnOnAfterDays.trim() === '' ? null : Number(values.turnOnAfterDays),
          }
        : values.kind === 'sale'
          ? {
              kind: 'sale',
              percent: Number(values.salePercent),
              startsAt: new Date(values.startsAt).toISOString(),
              endsAt: new Date(values.endsAt).toISOString(),
              ending,
            }
          : {
              kind: 'relist',
              durationHours: Number(values.durationHours) as 168 | 336 | 504 | 720,
            };
  return {
    name: values.name.trim(),
    scope,
    action,
    floor: {
      platformFeePercent: Number(values.feePercent),
      margin: { kind: 'percent', percent: Number(values.marginPercent) },
      fixed: values.fixed.trim(),
      withoutCost: values.noCostFixed ? 'fixed' : 'skip',
    },
    caps: { maxListings: Number(values.maxListings), maxMarkdown: '1000000.00' },
    skipEditedWithinDays: Number(values.skipEditedDays),
    schedule: { daily: values.daily, time: values.time, timeZone: zone() },
  };
}

/** A kept rule as the form shows it, to edit. */
function valuesOf(d: RuleDefinition, defaults: RuleFormValues): RuleFormValues {
  const a = d.action;
  const text = (n: number | null | undefined, fallback: string) => (n == null ? fallback : `${n}`);
  const percentOf = (m: RuleDefinition['floor']['margin']) =>
    m.kind === 'percent' ? m.percent : 0;
  return {
    ...defaults,
    name: d.name,
    view: KEEP,
    kind: a.kind,
    ...(a.kind === 'markdown' && {
      afterDays: `${a.afterDays}`,
      stepPercent: a.step.kind === 'percent' ? `${a.step.percent}` : defaults.stepPercent,
      everyDays: `${a.everyDays}`,
    }),
    ...((a.kind === 'markdown' || a.kind === 'sale') && { ending: a.ending }),
    ...(a.kind === 'offer_floor' && {
      offerPercent: `${a.percent}`,
      turnOnAfterDays: text(a.turnOnAfterDays, ''),
    }),
    ...(a.kind === 'sale' && {
      salePercent: `${a.percent}`,
      startsAt: local(Date.parse(a.startsAt)),
      endsAt: local(Date.parse(a.endsAt)),
    }),
    ...(a.kind === 'relist' && { durationHours: `${a.durationHours}` as '720' }),
    feePercent: `${d.floor.platformFeePercent}`,
    marginPercent: `${percentOf(d.floor.margin)}`,
    fixed: d.floor.fixed,
    noCostFixed: d.floor.withoutCost === 'fixed',
    maxListings: `${d.caps.maxListings}`,
    skipEditedDays: `${d.skipEditedWithinDays}`,
    daily: d.schedule.daily,
    time: d.schedule.time,
  };
}

const local = (at: number) => {
  const date = new Date(at - new Date(at).getTimezoneOffset() * 60_000);
  return date.toISOString().slice(0, 16);
};

/** A new rule, its scope taken from a saved view of the listings; or a kept rule, edited. */
export function NewRuleForm({
  onCreated,
  editing,
}: {
  onCreated(rule: Rule): void;
  editing?: Rule;
}) {
  const { views, unread } = useSavedViews('listings');
  const created = useCreateRule();
  const updated = useUpdateRule(editing?.id ?? 0);
  const create = editing ? updated : created;
  const headingId = `rule-form-${editing?.id ?? 'new'}`;
  // The sale's default window starts when the form opens.
  const [openedAt] = useState(() => Date.now());
  const defaults: RuleFormValues = {
    name: '',
    view: ALL,
    kind: 'markdown',
    afterDays: '60',
    stepPercent: '5',
    everyDays: '7',
    ending: '99',
    offerPercent: '80',
    turnOnAfterDays: '30',
    salePercent: '15',
    startsAt: local(openedAt),
    endsAt: local(openedAt + 3 * 86_400_000),
    durationHours: '720',
    feePercent: '12',
    marginPercent: '10',
    fixed: '15.00',
    noCostFixed: false,
    maxListings: '500',
    skipEditedDays: '7',
    daily: false,
    time: '06:00',
  };
  const form = useForm<RuleFormValues>({
    resolver: zodResolver(RuleForm),
    defaultValues: editing ? valuesOf(editing.definition, defaults) : defaults,
  });
  const { register, handleSubmit, formState, control, setError } = form;
  const errors = formState.errors;
  const kind = useWatch({ control, name: 'kind' });
  const viewName = useWatch({ control, name: 'view' });
  const chosen = views.find((v) => v.name === viewName);
  const leftOut = chosen ? scopeFromView(chosen.name, chosen.search).leftOut : [];
  const typed = ([name, label, inputMode, hint]: Field) => (
    <FormField key={name} label={label} error={errors[name]?.message} hint={hint}>
      {(c) => <input {...c} inputMode={inputMode} {...register(name)} />}
    </FormField>
  );

  const onSubmit = handleSubmit((values) => {
    if (values.kind === 'sale' && !(Date.parse(values.endsAt) > Date.parse(values.startsAt))) {
      setError('endsAt', { message: 'The sale must end after it starts' });
      return;
    }
    const definition = definitionOf(values, views, editing?.definition);
    const save = editing ? updated.mutateAsync({ definition }) : created.mutateAsync(definition);
    save.then(
      (answer) => {
        form.reset();
        onCreated(answer.rule);
      },
      () => undefined, // shown by the banner
    );
  });

  return (
    <form
      className="rule-form form-grid"
      onSubmit={onSubmit}
      aria-labelledby={headingId}
      noValidate
    >
      <h2 id={headingId} className="wide">
        {editing ? `Edit ${editing.definition.name}` : 'New rule'}
      </h2>
      <FormField label="Name" error={errors.name?.message}>
        {(c) => <input {...c} {...register('name')} autoComplete="off" />}
      </FormField>
      <FormField
        label="Listings (a saved view)"
        hint={
          leftOut.length
            ? `The rule uses the view’s status, grader, grade, category and age; not its ${leftOut.join(', ')}.`
            : unread
              ? 'Your saved views could not be read now; try again when the server answers.'
              : views.length === 0
                ? 'Save a view on the Listings page to choose it here.'
                : 'The rule takes the view’s filters as they are now.'
        }
      >
        {(c) => (
          <select {...c} {...register('view')}>
            {editing && <option value={KEEP}>As it is: {scopeSummary(editing.definition)}</option>}
            <option value={ALL}>All listings</option>
            <Options of={views.map((view) => [view.name, view.name])} />
          </select>
        )}
      </FormField>
      <FormField label="What it does">
        {(c) => (
          <select {...c} {...register('kind')}>
            <option value="markdown">Lower stale listings step by step</option>
            <option value="offer_floor">Keep a minimum offer</option>
            <option value="sale">Sale for a set time</option>
            <option value="relist">Relist expired listings</option>
          </select>
        )}
      </FormField>
      {ACTION_FIELDS[kind].map(typed)}
      {kind === 'sale' && (
        <>
          <FormField label="Starts" error={errors.startsAt?.message}>
            {(c) => <input {...c} type="datetime-local" {...register('startsAt')} />}
          </FormField>
          <FormField
            label="Ends"
            error={errors.endsAt?.message}
            hint="At the end each price goes back, unless you changed it meanwhile."
          >
            {(c) => <input {...c} type="datetime-local" {...register('endsAt')} />}
          </FormField>
        </>
      )}
      {(kind === 'markdown' || kind === 'sale') && (
        <FormField label="New prices end in">
          {(c) => (
            <select {...c} {...register('ending')}>
              <option value="cent">To the cent</option>
              <option value="99">.99</option>
              <option value="whole">Whole dollars</option>
            </select>
          )}
        </FormField>
      )}
      {kind === 'relist' && (
        <FormField label="Relist for">
          {(c) => (
            <select {...c} {...register('durationHours')}>
              <DurationOptions />
            </select>
          )}
        </FormField>
      )}
      <fieldset className="wide floor-fields">
        <legend>Floor: never below</legend>
        {FLOOR_FIELDS.map(typed)}
        <CheckboxField
          label="Also change listings with no cost (held to that amount)"
          hint="Off: a listing whose card has no cost is left alone."
        >
          {(c) => <input type="checkbox" {...c} {...register('noCostFixed')} />}
        </CheckboxField>
      </fieldset>
      {RUN_FIELDS.map(typed)}
      <CheckboxField label="Run by itself every day">
        {(c) => <input type="checkbox" {...c} {...register('daily')} />}
      </CheckboxField>
      <FormField label={`At (your time, ${zone()})`} error={errors.time?.message}>
        {(c) => <input {...c} type="time" {...register('time')} />}
      </FormField>
      <ErrorBanner error={create.error} title="The rule was not saved" />
      <div className="form-actions wide">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Saving…' : 'Save rule'}
        </button>
      </div>
    </form>
  );
}
