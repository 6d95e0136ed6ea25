import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

/** SPEC §9: success toasts stay 7 s, error and warning toasts 10 s. */
export const SUCCESS_AUTO_CLOSE_MS = 7000;
export const ERROR_AUTO_CLOSE_MS = 10_000;

export const notify = {
  success(title: ReactNode, message?: ReactNode): string {
    return notifications.show({ title, message, color: 'green', autoClose: SUCCESS_AUTO_CLOSE_MS });
  },
  error(title: ReactNode, message?: ReactNode): string {
    return notifications.show({ title, message, color: 'red', autoClose: ERROR_AUTO_CLOSE_MS });
  },
  warning(title: ReactNode, message?: ReactNode): string {
    return notifications.show({ title, message, color: 'yellow', autoClose: ERROR_AUTO_CLOSE_MS });
  },
};
