import { Alert, Skeleton, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorDisplayText } from '../../lib/error-text';
import { SectionCard } from './SectionCard';

/** What a setting's body needs of its read (a TanStack query's result fits). */
export type SettingRead<T> = { data: T | undefined; error: unknown; isPending: boolean };

export type SettingBodyProps<T> = {
  read: SettingRead<T>;
  /** The skeleton's accessible name while the read is pending ("Loading consent age"). */
  loading: string;
  /** The skeleton's size: the control's it stands for (a select: 240 px wide). */
  skeleton?: { height?: number; width?: number | string };
  /** Words before the read's error ("The retention could not be loaded: "); none: the error alone. */
  errorLead?: string;
  /** Whether the caller may change the setting (owners): `edit` then, else `readOnly` and `ownersOnly`. */
  owner: boolean;
  edit: (data: T) => ReactNode;
  /**
   * What members read of the setting. None: members are not shown it at all (a setting only owners may read, whose
   * read answers members 403), only `ownersOnly`, and the read is not waited for.
   */
  readOnly?: (data: T) => ReactNode;
  /** The members' note ("Only owners can change it."). */
  ownersOnly?: string;
};

/**
 * One setting's body in one order: a skeleton while its read is pending, the read's error as an alert, then the owner's
 * control, or what members may read of it with the note that only owners change it.
 */
export function SettingBody<T>({
  read,
  loading,
  skeleton,
  errorLead,
  owner,
  edit,
  readOnly,
  ownersOnly,
}: SettingBodyProps<T>) {
  const note = ownersOnly ? (
    <Text size="sm" c="dimmed">
      {ownersOnly}
    </Text>
  ) : null;
  if (!owner && !readOnly) return note;
  if (read.isPending)
    return (
      <Skeleton
        height={skeleton?.height ?? 36}
        width={skeleton?.width ?? '100%'}
        radius="sm"
        aria-busy="true"
        role="progressbar"
        aria-label={loading}
      />
    );
  if (read.data === undefined)
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
        {errorLead}
        {errorDisplayText(read.error)}
      </Alert>
    );
  if (owner) return edit(read.data);
  return (
    <>
      {readOnly?.(read.data)}
      {note}
    </>
  );
}

/**
 * A settings card (Company Info's): its title, the words saying what the setting does, and its body (`SettingBody`).
 * Cards beside Company Info's own keep its width.
 */
export function SettingCard<T>({
  title,
  description,
  maw = 720,
  ...body
}: SettingBodyProps<T> & { title: string; description: ReactNode; maw?: number }) {
  return (
    <SectionCard title={title} maw={maw}>
      <Text size="sm" c="dimmed">
        {description}
      </Text>
      <SettingBody {...body} />
    </SectionCard>
  );
}
