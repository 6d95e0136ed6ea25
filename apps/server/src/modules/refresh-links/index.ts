/**
 * Refresh links (issue #36 item 4, ADR 44): a fresh verification link bound to an approved verification. service.ts
 * owns `refresh_links`: making a link (API v1 and the app) and the rule of which link a code request may name
 * (`linkForSend`, asked by the attempt's owner, modules/attempts).
 */

export { refreshLinkRoutes } from './routes.ts';
export {
  createRefreshLinks,
  linkForSend,
  REFRESH_LINK_DAYS,
  REFRESH_PARAM,
  type RefreshLinkForSend,
  type RefreshLinks,
  refreshTexts,
} from './service.ts';
