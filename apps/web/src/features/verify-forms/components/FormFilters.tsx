import { Group } from '@mantine/core';
import type { FormListSearch } from '@veriform/contracts';
import { AnyOfFilter } from '../../../components/form/AnyOfFilter';
import { DateRangeFilter } from '../../../components/form/DateRangeFilter';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { SearchBox } from '../../../components/form/SearchBox';
import { languageOptions } from '../languages';

export type FormSearchPatch = Partial<FormListSearch>;

const statusOptions = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

const createdOptions: { value: FormListSearch['created__date__preset']; label: string }[] = [
  { value: 'all', label: 'All time' },
  { value: 'today', label: 'Today' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: 'last3d', label: 'Last 3 days' },
  { value: 'last7d', label: 'Last 7 days' },
  { value: 'last30d', label: 'Last 30 days' },
  { value: 'custom', label: 'Custom range' },
];

/** Whether any filter narrows the list (paging and sort do not). */
export function hasActiveFilters(search: FormListSearch): boolean {
  return (
    search.isLive !== undefined ||
    search.status !== 'all' ||
    search.language !== 'all' ||
    (search.category__in?.length ?? 0) > 0 ||
    search.created__date__preset !== 'all' ||
    Boolean(search.q)
  );
}

/** The forms list's filters, each bound to a search param of the URL (SPEC §2). */
export function FormFilters({
  search,
  categories,
  onChange,
}: {
  search: FormListSearch;
  categories: readonly string[];
  onChange: (patch: FormSearchPatch) => void;
}) {
  const status = search.isLive === undefined ? search.status : search.isLive ? 'active' : 'inactive';
  const selectedCategories = search.category__in ?? [];
  const categoryOptions = [...new Set([...categories, ...selectedCategories])];
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" mb="md" role="search" aria-label="Filter forms">
      <SearchBox
        label="Search forms"
        flexBasis={220}
        q={search.q ?? ''}
        onChange={(q) => onChange({ q: q || undefined })}
      />
      <LabelledSelect
        label="Status"
        data={statusOptions}
        value={status}
        onChange={(value) =>
          onChange({ status: (value ?? 'all') as FormListSearch['status'], isLive: undefined })
        }
        w={140}
      />
      <LabelledSelect
        label="Language"
        data={[{ value: 'all', label: 'All' }, ...languageOptions]}
        value={search.language}
        onChange={(value) => onChange({ language: (value ?? 'all') as FormListSearch['language'] })}
        w={140}
      />
      <AnyOfFilter
        label="Categories"
        data={categoryOptions}
        value={selectedCategories}
        onChange={(value) => onChange({ category__in: value })}
        w={220}
      />
      <DateRangeFilter options={createdOptions} value={search} onChange={onChange} />
    </Group>
  );
}
