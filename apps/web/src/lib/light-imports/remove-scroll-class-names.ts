/**
 * What Mantine's AppShell header, footer and aside take from react-remove-scroll (their only import from it): the
 * class names that keep fixed bars in place while a dialog locks the page's scrolling, the same strings as
 * react-remove-scroll-bar's constants (remove-scroll-class-names.test.ts checks). The build points their import here
 * (apps/web/vite.config.ts, lightImports) so that the app shell does not load the scroll lock (~4 KB gzip) before a
 * dialog opens.
 */
export const RemoveScroll = {
  classNames: {
    zeroRight: 'right-scroll-bar-position',
    fullWidth: 'width-before-scroll-bar',
  },
} as const;
