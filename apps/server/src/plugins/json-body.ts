import type { FastifyInstance } from 'fastify';

/**
 * Fastify's own JSON parser (prototype-poisoning checks included), except that an empty body with a JSON content
 * type counts as no body: API clients commonly send `Content-Type: application/json` on bodiless POSTs such as
 * logout. Routes that need a body still answer 400 through their schema.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
