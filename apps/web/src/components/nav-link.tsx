import { NavLink, type NavLinkProps } from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import type { AnchorAttrs } from './links';

function MantineNavLinkAnchor(props: NavLinkProps & AnchorAttrs) {
  return <NavLink component="a" {...props} />;
}

/** Mantine's NavLink as a router link (the shell's navigation). */
export const NavLinkLink: LinkComponent<typeof MantineNavLinkAnchor> = createLink(MantineNavLinkAnchor);
