import { GrpcError } from './grpc-status.js';
import { headerMetadata } from './header-metadata.js';

describe('headers → metadata', () => {
  it('keeps x- headers, lower-cased, as lists, duplicates in order; adds x-forwarded-*', () => {
    const rawHeaders = [
      'Host',
      'argo:2746',
      'X-A',
      '1',
      'x-a',
      '2',
      'X-Multi',
      'a, b',
      'Authorization',
      'Bearer t',
      'Accept',
      '*/*',
    ];
    expect(headerMetadata({ rawHeaders, remoteAddress: '::ffff:10.0.0.5' })).toEqual({
      'x-a': ['1', '2'],
      'x-multi': ['a, b'],
      'x-forwarded-host': ['argo:2746'],
      'x-forwarded-for': ['10.0.0.5'],
    });
  });

  it("appends to the client's X-Forwarded-* values (two entries)", () => {
    const rawHeaders = ['Host', 'argo', 'X-Forwarded-Host', 'h', 'X-Forwarded-For', '1.2.3.4'];
    expect(headerMetadata({ rawHeaders, remoteAddress: '10.0.0.5' })).toEqual({
      'x-forwarded-host': ['h', 'h'],
      'x-forwarded-for': ['1.2.3.4', '1.2.3.4, 10.0.0.5'],
    });
  });

  it('decodes -bin headers and refuses non-printable values (any forwarded header)', () => {
    expect(headerMetadata({ rawHeaders: ['X-Data-Bin', Buffer.from('hé').toString('base64')] })).toEqual({
      'x-data-bin': ['hé'],
    });
    expect(() => headerMetadata({ rawHeaders: ['User-Agent', 'caf\u00e9'] })).toThrow(GrpcError);
    expect(() => headerMetadata({ rawHeaders: ['X-Data-Bin', '!!!'] })).toThrow('illegal base64 data');
  });
});
