import {
  Anchor,
  type AnchorProps,
  Button,
  type ButtonProps,
  NavLink,
  type NavLinkProps,
} from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

/** Mantine components rendered as router links (typed `to`, `params`, `search`; real <a href> elements). */

type AnchorAttrs = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'> & {
  ref?: Ref<HTMLAnchorElement>;
};

function MantineAnchor(props: AnchorProps & AnchorAttrs) {
  return <Anchor {...props} />;
}

function MantineButtonAnchor(props: ButtonProps & AnchorAttrs) {
  return <Button component="a" {...props} />;
}

function MantineNavLinkAnchor(props: NavLinkProps & AnchorAttrs) {
  return <NavLink component="a" {...props} />;
}

export const AnchorLink: LinkComponent<typeof MantineAnchor> = createLink(MantineAnchor);
export const ButtonLink: LinkComponent<typeof MantineButtonAnchor> = createLink(MantineButtonAnchor);
export const NavLinkLink: LinkComponent<typeof MantineNavLinkAnchor> = createLink(MantineNavLinkAnchor);
