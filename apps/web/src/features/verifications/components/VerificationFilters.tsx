import { Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  type DatePreset,
  datePresets,
  formListSearchSchema,
  type VerificationFilter,
  type VerificationMethod,
  type VerificationSource,
} from '@veriform/contracts';
import type { ReactNode } from 'react';
import { AnyOfFilter } from '../../../components/form/AnyOfFilter';
import { DateRangeFilter, datePresetLabels } from '../../../components/form/DateRangeFilter';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { SearchBox } from '../../../components/form/SearchBox';
import { methodLabels } from '../../../lib/format';
import { useServices } from '../../../lib/services';
import { formCategoriesQueryOptions, verifyFormListQueryOptions } from '../../verify-forms/api';
import { sourceLabels } from '../source';

/**
 * The filter bar of the activity log, shared with the dashboard (SPEC §2: "other filters as the activity log").
 *
 * It is controlled: `value` is the current filter (the route's validated search params) and `onChange` gets a patch
 * that the route merges into the URL (`navigate({search})`), so every filter is bookmarkable and Back/Forward work.
 *
 * Time zone: the bar never writes `tz`. The routes send the browser's zone to the API (`browserTimeZone()`, fallback
 * America/New_York) unless the URL carries one, so a plain link means "my local days" for whoever opens it, and a link
 * that was shared with an explicit `tz` keeps meaning the sender's days.
 */

/** The filter fields the bar edits, with the date presets narrowed to those offered. */
export type VerificationFilterValue<P extends DatePreset = DatePreset> = Omit<
  VerificationFilter,
  'created__date__preset'
> & { created__date__preset: P };
export type VerificationFilterPatch<P extends DatePreset = DatePreset> = Partial<VerificationFilterValue<P>>;

type MethodChoice = 'all' | VerificationMethod;
const methodOptions: { value: MethodChoice; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'sms', label: methodLabels.sms },
  { value: 'email', label: methodLabels.email },
];

/** `verificationMethod__in` holds a list (SPEC §2); with two methods, one of them or none (all) is all a user picks. */
export function methodChoice(methods: VerificationFilter['verificationMethod__in']): MethodChoice {
  const picked = (methods ?? []).filter((m): m is VerificationMethod => m !== 'all');
  const unique = [...new Set(picked)];
  return unique.length === 1 && unique[0] ? unique[0] : 'all';
}

type SourceChoice = 'all' | VerificationSource;
const sourceOptions: { value: SourceChoice; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'api', label: sourceLabels.api },
  { value: 'hosted', label: sourceLabels.hosted },
];

/** Whether a filter narrows the rows (used to tell "no verifications yet" from "none match"). */
export function hasActiveVerificationFilters(filter: VerificationFilterValue): boolean {
  return (
    (filter.verifyFormId__in?.length ?? 0) > 0 ||
    (filter.verifyFormCategory__in?.length ?? 0) > 0 ||
    methodChoice(filter.verificationMethod__in) !== 'all' ||
    filter.source !== undefined ||
    filter.created__date__preset !== 'all' ||
    Boolean(filter.q)
  );
}

/** The patch of a "Clear filters" button (the dashboard passes its own default preset). */
export function clearedVerificationFilters<P extends DatePreset>(preset: P): VerificationFilterPatch<P> {
  return {
    verifyFormId__in: undefined,
    verifyFormCategory__in: undefined,
    verificationMethod__in: undefined,
    source: undefined,
    created__date__preset: preset,
    created__date__gte: undefined,
    created__date__lte: undefined,
    q: undefined,
  };
}

// Every form of the account for the Forms options, by name (the list API's maximum page; see the report's note).
const formOptionsSearch = formListSearchSchema.parse({ o: 'name', pageSize: 100 });

// Room for the whole placeholder (it says what is searched), with the other filters still on one line of a 1440 px
// screen; the forms and categories boxes gave up some width for it. Since Source (issue #15), a 1280 px screen puts
// Created on a second line: narrower boxes would cut "Hosted page" or the chosen forms' names.
const SEARCH_BOX_BASIS = 290;

export interface VerificationFiltersProps<P extends DatePreset> {
  accountId: number;
  value: VerificationFilterValue<P>;
  onChange: (patch: VerificationFilterPatch<P>) => void;
  /** The date presets offered, in order (the dashboard: last7d, last30d, custom). Default: all of SPEC §2's. */
  presets?: readonly P[];
  /** The landmark's name (one search landmark per page). */
  'aria-label'?: string;
  /** A page's own filters after the log's, in the same landmark (the attempts' delivery status). */
  children?: ReactNode;
}

export function VerificationFilters<P extends DatePreset = DatePreset>({
  accountId,
  value,
  onChange,
  presets = datePresets as readonly DatePreset[] as readonly P[],
  'aria-label': ariaLabel = 'Filter verifications',
  children,
}: VerificationFiltersProps<P>) {
  const { api } = useServices();
  // Options are suggestions: while they load (or if they fail) the chosen values still show and can be removed.
  const { data: forms } = useQuery(verifyFormListQueryOptions(api, accountId, formOptionsSearch));
  const { data: categories = [] } = useQuery(formCategoriesQueryOptions(api, accountId));

  const selectedForms = (value.verifyFormId__in ?? []).map(String);
  const knownForms = new Map((forms?.results ?? []).map((f) => [String(f.id), f.name]));
  const formOptions = [
    ...[...knownForms].map(([id, name]) => ({ value: id, label: name })),
    // A form id from a shared link that is not among the options (deleted, or past the first 100) stays removable.
    ...selectedForms.filter((id) => !knownForms.has(id)).map((id) => ({ value: id, label: `Form #${id}` })),
  ];
  const selectedCategories = value.verifyFormCategory__in ?? [];
  const categoryOptions = [...new Set([...categories, ...selectedCategories])];
  // The preset in the URL is always offered, even if a caller narrowed `presets` (it is what the page shows).
  const presetOptions = [...new Set<P>([...presets, value.created__date__preset])].map((p) => ({
    value: p,
    label: datePresetLabels[p],
  }));

  return (
    <Group align="flex-end" gap="sm" wrap="wrap" mb="md" role="search" aria-label={ariaLabel}>
      <SearchBox
        label="Search"
        placeholder="Phone, reference or form name"
        flexBasis={SEARCH_BOX_BASIS}
        q={value.q ?? ''}
        onChange={(q) => onChange({ q: q || undefined })}
      />
      <AnyOfFilter
        label="Forms"
        data={formOptions}
        value={selectedForms}
        onChange={(ids) => onChange({ verifyFormId__in: ids?.map(Number) })}
        w={220}
      />
      <AnyOfFilter
        label="Categories"
        data={categoryOptions}
        value={selectedCategories}
        onChange={(list) => onChange({ verifyFormCategory__in: list })}
        w={190}
      />
      <LabelledSelect
        label="Method"
        data={methodOptions}
        value={methodChoice(value.verificationMethod__in)}
        onChange={(choice) =>
          onChange({
            verificationMethod__in: choice === 'sms' || choice === 'email' ? [choice] : undefined,
          })
        }
        w={120}
      />
      <LabelledSelect
        label="Source"
        data={sourceOptions}
        value={value.source ?? 'all'}
        onChange={(choice) =>
          onChange({ source: choice === 'api' || choice === 'hosted' ? choice : undefined })
        }
        w={140}
      />
      {children}
      <DateRangeFilter options={presetOptions} value={value} onChange={onChange} />
    </Group>
  );
}
