import { Anchor, type AnchorProps, Button, type ButtonProps } from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

/**
 * Mantine components rendered as router links (typed `to`, `params`, `search`; real <a href> elements). The shell's
 * NavLinkLink is in nav-link.tsx: here it put NavLink (and its collapse) on every page, the login page's too.
 */

export type AnchorAttrs = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'> & {
  ref?: Ref<HTMLAnchorElement>;
};

function MantineAnchor(props: AnchorProps & AnchorAttrs) {
  return <Anchor {...props} />;
}

function MantineButtonAnchor(props: ButtonProps & AnchorAttrs) {
  return <Button component="a" {...props} />;
}

export const AnchorLink: LinkComponent<typeof MantineAnchor> = createLink(MantineAnchor);
export const ButtonLink: LinkComponent<typeof MantineButtonAnchor> = createLink(MantineButtonAnchor);
