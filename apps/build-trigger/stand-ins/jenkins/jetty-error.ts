import type { StandInResponse } from '@app/local-agent';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  500: 'Server Error',
};

/** An error page the way Jenkins' Jetty renders one: HTML, never JSON. */
export function jettyError(
  status: number,
  path: string,
  message = REASONS[status] ?? 'Error',
): StandInResponse {
  const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return {
    status,
    headers: {
      'Content-Type': 'text/html;charset=iso-8859-1',
      'Cache-Control': 'must-revalidate,no-cache,no-store',
    },
    body:
      `<html>\n<head>\n<meta http-equiv="Content-Type" content="text/html;charset=ISO-8859-1"/>\n<title>Error ${status} ${escaped}</title>\n</head>\n` +
      `<body><h2>HTTP ERROR ${status} ${escaped}</h2>\n<table>\n<tr><th>URI:</th><td>${path}</td></tr>\n<tr><th>STATUS:</th><td>${status}</td></tr>\n` +
      `<tr><th>MESSAGE:</th><td>${escaped}</td></tr>\n<tr><th>SERVLET:</th><td>Stapler</td></tr>\n</table>\n\n</body>\n</html>\n`,
  };
}
