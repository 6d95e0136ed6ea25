import { errorTexts } from '@veriform/contracts';
import { AppError } from '../../lib/errors.ts';

export const invalidTokenError = () => AppError.nonField('invalid_token', errorTexts.invalidToken);
export const invalidCredentialsError = () =>
  AppError.nonField('invalid_credentials', errorTexts.invalidCredentials);
export const emailTakenError = () => AppError.field('email_taken', 'email', errorTexts.emailTaken);
