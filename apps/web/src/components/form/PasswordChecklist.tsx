import { List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { passwordRules } from '@veriform/contracts';

/**
 * SPEC §5 live checklist: each rule flips between met and unmet as the user types. Screen readers hear the state
 * ("met" / "not met") after each rule.
 */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  return (
    <List id={id} spacing={4} size="sm" aria-label="Password requirements" listStyleType="none">
      {passwordRules.map((rule) => {
        const met = rule.test(password);
        return (
          <List.Item
            key={rule.id}
            data-rule={rule.id}
            data-met={met}
            icon={
              <ThemeIcon
                color={met ? 'teal' : 'gray'}
                variant={met ? 'filled' : 'light'}
                size={18}
                radius="xl"
              >
                {met ? <IconCheck size={12} aria-hidden="true" /> : <IconX size={12} aria-hidden="true" />}
              </ThemeIcon>
            }
          >
            <Text span size="sm" c={met ? 'teal.8' : 'dimmed'}>
              {rule.label}
            </Text>
            <VisuallyHidden>{met ? ' (met)' : ' (not met)'}</VisuallyHidden>
          </List.Item>
        );
      })}
    </List>
  );
}
