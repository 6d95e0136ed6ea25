import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '../../test/render';
import { DefaultErrorScreen } from './DefaultErrorScreen';
import { ForbiddenScreen } from './ForbiddenScreen';
import { NotFoundScreen, PlainNotFound } from './NotFoundScreen';
import { ServerErrorScreen } from './ServerErrorScreen';

describe('error screens (SPEC §2)', () => {
  it('not found: large 404, heading, text and a Back to home button to /dashboard', async () => {
    renderWithRouter(<NotFoundScreen />);
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(
      screen.getByText('Looks like this page was moved, deleted, or maybe... never even existed.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/dashboard');
  });

  it('403: the sentence and a Go to home link', async () => {
    renderWithRouter(<ForbiddenScreen />);
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/');
  });

  it('server error: Oh dear., the team was notified, support e-mail, Try again and Go to home', async () => {
    const onRetry = vi.fn();
    renderWithRouter(<ServerErrorScreen onRetry={onRetry} />);
    expect(await screen.findByRole('heading', { name: 'Oh dear.' })).toBeInTheDocument();
    expect(screen.getByText(/Our team has been notified/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'support@veriform.app' })).toHaveAttribute(
      'href',
      'mailto:support@veriform.app',
    );
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('default error: Something went wrong! with a Show Error / Hide Error toggle', async () => {
    renderWithRouter(<DefaultErrorScreen error={new Error('kaput')} />);
    expect(await screen.findByText('Something went wrong!')).toBeInTheDocument();
    expect(screen.queryByText('kaput')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show Error' }));
    expect(screen.getByText('kaput')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Hide Error' }));
    expect(screen.queryByText('kaput')).not.toBeInTheDocument();
  });

  it('plain fallback: Not Found', async () => {
    renderWithRouter(<PlainNotFound />);
    expect(await screen.findByText('Not Found')).toBeInTheDocument();
  });
});
