import { Text } from '@mantine/core';
import { IconAlertTriangle, IconWorldCheck } from '@tabler/icons-react';

/**
 * The words keep the page's text colour (orange 9 and green 9 on white are 4.3:1, under WCAG AA's 4.5:1 for text this
 * size); the icon carries the colour.
 *
 * Beside the issuing company's name (issue #33 item 10, ADR 31): the domains it had proven it controls when the
 * certificate was issued, or plainly that its name is not verified — any account may call itself anything. The same
 * words as the PDF: "— verified domain acme.com" or "— name not verified".
 */
export function IssuerDomains({ domains }: { domains: readonly string[] }) {
  const verified = domains.length > 0;
  const Icon = verified ? IconWorldCheck : IconAlertTriangle;
  return (
    <Text span inherit fw={600} data-testid="issuer-domains">
      <Icon
        size={16}
        aria-hidden="true"
        color={`var(--mantine-color-${verified ? 'green' : 'orange'}-9)`}
        style={{ verticalAlign: '-2px', marginRight: 4 }}
      />
      {verified ? (
        <>
          {domains.length === 1 ? 'verified domain' : 'verified domains'}{' '}
          <Text span inherit ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {domains.join(', ')}
          </Text>
        </>
      ) : (
        'name not verified'
      )}
    </Text>
  );
}

/** What "name not verified" means, for whoever reads the certificate. */
export const NAME_NOT_VERIFIED_NOTE =
  'The company had proven no domain when this certificate was issued: the name is what its Veriform account calls itself.';
