import type { Role, TeamUser } from '@veriform/contracts';

/** How the team screen names a person: the name, else the e-mail address. */
export function personName(user: Pick<TeamUser, 'name' | 'email'>): string {
  return user.name.trim() || user.email;
}

/** Who created a key or an endpoint, as lists show it: the name, else the address; "—" when unknown. */
export function creatorName(createdBy: Pick<TeamUser, 'name' | 'email'> | null): string {
  return createdBy ? personName(createdBy) : '—';
}

export const roleLabels: Record<Role, string> = { owner: 'Owner', member: 'Member' };

export const roleOptions = [
  { value: 'member', label: roleLabels.member },
  { value: 'owner', label: roleLabels.owner },
];

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}
