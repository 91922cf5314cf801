import { cleanPath, decodePath, matchRoute } from './gateway-path.js';

describe('gateway paths', () => {
  it.each([
    ['/api/v1/events/argo/', '/api/v1/events/argo/'],
    ['/api/v1/events//x', '/api/v1/events/x'],
    ['/api/v1/events/argo/./x', '/api/v1/events/argo/x'],
    ['/api/v1/events/argo/../x/', '/api/v1/events/x/'],
    ['/', '/'],
  ])('Go cleans %s to %s', (path, cleaned) => expect(cleanPath(path)).toBe(cleaned));

  it('decodes like url.PathUnescape; bad escapes are undefined', () => {
    expect(decodePath('/a%2Fb%20c%C3%A9')).toBe('/a/b cé');
    expect(decodePath('/a%zz')).toBeUndefined();
    expect(decodePath('/a%2')).toBeUndefined();
  });

  it.each([
    ['POST', '/api/v1/events/argo/', { kind: 'event', namespace: 'argo', discriminator: '' }],
    ['POST', '/api/v1/events/argo/d.x~y-z_', { kind: 'event', namespace: 'argo', discriminator: 'd.x~y-z_' }],
    ['POST', '/api/v1/events/argo', { kind: 'none' }],
    ['POST', '/api/v1/events/argo/a/b', { kind: 'none' }],
    ['POST', '/api/v1/events/argo/a:b', { kind: 'none' }],
    ['GET', '/api/v1/events/argo/', { kind: 'none' }],
    ['GET', '/api/v1/workflow-event-bindings/argo', { kind: 'list-bindings', namespace: 'argo' }],
    ['GET', '/api/v1/workflows/argo', { kind: 'list-workflows', namespace: 'argo' }],
    ['POST', '/api/v1/workflows/argo', { kind: 'none' }],
    ['GET', '/api/v2/workflows/argo', { kind: 'none' }],
  ])('%s %s', (method, path, route) => expect(matchRoute(method, path)).toEqual(route));
});
