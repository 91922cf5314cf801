import { PagerDutyStandIn } from '../stand-ins/pagerduty/pagerduty.stand-in.js';

export interface PagerDutyDemo {
  pd: PagerDutyStandIn;
  /** The routing key of the default service. */
  routingKey: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local PagerDuty Events API with two services: the default one and `payments`. */
export async function startPagerDutyDemo(): Promise<PagerDutyDemo> {
  const pd = await new PagerDutyStandIn().start();
  const routingKey = pd.addService();
  return {
    pd,
    routingKey,
    env: {
      PAGERDUTY_ROUTING_KEY: routingKey,
      PAGERDUTY_PAYMENTS_ROUTING_KEY: pd.addService(),
      PAGERDUTY_EVENTS_URL: pd.url,
    },
    close: () => pd.close(),
  };
}
