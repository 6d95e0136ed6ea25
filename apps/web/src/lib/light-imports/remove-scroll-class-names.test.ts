import { RemoveScroll as Library } from 'react-remove-scroll';
import { describe, expect, it } from 'vitest';
import { RemoveScroll } from './remove-scroll-class-names';

describe('the AppShell stand-in for react-remove-scroll', () => {
  it('names the classes the scroll lock offsets', () => {
    expect(RemoveScroll.classNames).toEqual({
      zeroRight: Library.classNames.zeroRight,
      fullWidth: Library.classNames.fullWidth,
    });
  });
});
