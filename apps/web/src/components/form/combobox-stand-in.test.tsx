import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { MultiSelectStandIn, optionLabel, SelectStandIn } from './ComboboxStandIn';
import { useStandInReach } from './comboboxes';

/** A stand-in field and, once `arrived`, an element of the same id in its place, as LabelledSelect swaps them. */
function Harness() {
  const [arrived, setArrived] = useState(false);
  const [clicks, setClicks] = useState(0);
  const reach = useStandInReach('status', arrived);
  return (
    <MantineProvider>
      <label htmlFor="status">Status</label>
      {arrived ? (
        <input
          id="status"
          aria-label="real"
          readOnly
          onClick={() => setClicks((n) => n + 1)}
          data-clicks={clicks}
        />
      ) : (
        <SelectStandIn
          id="status"
          data={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Active' },
          ]}
          value="active"
          handlers={reach.handlers}
        />
      )}
      <button type="button" onClick={() => setArrived(true)}>
        arrive
      </button>
    </MantineProvider>
  );
}

describe('the select stand-in', () => {
  it('looks like the select: named by its label, a closed combobox showing the chosen option', () => {
    render(<Harness />);
    const field = screen.getByRole('combobox', { name: 'Status' });
    expect(field).toHaveValue('Active');
    expect(field).toHaveAttribute('aria-expanded', 'false');
  });

  it('hands a press over: the real field is pressed (which opens its options) and has the focus', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    // The code arrives (a DOM click, which leaves the focus where it was).
    screen.getByRole('button', { name: 'arrive' }).click();
    const real = await screen.findByRole('textbox', { name: 'real' });
    expect(real).toHaveFocus();
    await waitFor(() => expect(real).toHaveAttribute('data-clicks', '1'));
  });

  it('the multiple one is named by its label too, its choices shown as pills', () => {
    const nothing = () => undefined;
    const handlers = {
      onPointerEnter: nothing,
      onPointerDown: nothing,
      onFocus: nothing,
      onBlur: nothing,
      onClick: nothing,
      onKeyDown: nothing,
    };
    render(
      <MantineProvider>
        <label htmlFor="countries">Countries</label>
        <MultiSelectStandIn
          id="countries"
          data={[{ value: 'US', label: 'United States' }]}
          value={['US']}
          searchable
          handlers={handlers}
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('combobox', { name: 'Countries' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('United States')).toBeInTheDocument();
  });

  it('reads labels from strings, objects and groups', () => {
    const data = [
      'plain',
      { value: 'a', label: 'Alpha' },
      { group: 'Group', items: [{ value: 'b', label: 'Beta' }] },
    ];
    expect(optionLabel(data, 'plain')).toBe('plain');
    expect(optionLabel(data, 'a')).toBe('Alpha');
    expect(optionLabel(data, 'b')).toBe('Beta');
    expect(optionLabel(data, 'gone')).toBe('gone');
  });
});
