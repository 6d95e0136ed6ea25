import { MantineProvider, PasswordInput } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PasswordChecklist } from './PasswordChecklist';

function Harness() {
  const [value, setValue] = useState('');
  return (
    <MantineProvider>
      <PasswordInput label="Password" value={value} onChange={(e) => setValue(e.currentTarget.value)} />
      <PasswordChecklist password={value} />
    </MantineProvider>
  );
}

function states() {
  const list = screen.getByRole('list', { name: 'Password requirements' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

describe('PasswordChecklist', () => {
  it('flips each rule between met and not met as the user types', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(states()).toEqual([
      'At least 9 characters long (not met)',
      'At least 1 number (not met)',
      'At least 1 special character, !@#$&*%? (not met)',
    ]);

    const input = screen.getByLabelText('Password');
    await user.type(input, 'abc1');
    expect(states()).toEqual([
      'At least 9 characters long (not met)',
      'At least 1 number (met)',
      'At least 1 special character, !@#$&*%? (not met)',
    ]);

    await user.type(input, 'defgh!');
    expect(states()).toEqual([
      'At least 9 characters long (met)',
      'At least 1 number (met)',
      'At least 1 special character, !@#$&*%? (met)',
    ]);

    await user.clear(input);
    await user.type(input, 'abcdefghij');
    expect(states()).toEqual([
      'At least 9 characters long (met)',
      'At least 1 number (not met)',
      'At least 1 special character, !@#$&*%? (not met)',
    ]);
  });
});
