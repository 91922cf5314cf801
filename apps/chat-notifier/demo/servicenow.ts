import { ServicenowStandIn, type SnUser } from '../stand-ins/servicenow/servicenow.stand-in.js';

/** The password of the demo's ServiceNow account (a stand-in value, not a real credential). */
export const DEMO_SERVICENOW_PASSWORD = 'sn-standin-demo-gate-password-01';
/** The approver of servicenow-change-approval.yaml (a fixed sys_id: the example names it). */
export const DEMO_SERVICENOW_APPROVER = '5137153cc611227c000bbd1bd8cd2005';

export interface ServicenowDemoServer {
  sn: ServicenowStandIn;
  alice: SnUser;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local ServiceNow instance where the account argo.gate opens change requests. On a change's second read its
 * approval rules ask alice (the change moves to Assess), and she approves it.
 */
export async function startServicenowDemo(): Promise<ServicenowDemoServer> {
  const sn = await new ServicenowStandIn().start();
  sn.addUser('argo.gate', { password: DEMO_SERVICENOW_PASSWORD });
  const alice = sn.addUser('alice', { sysId: DEMO_SERVICENOW_APPROVER });
  sn.script.each(2, (number) => {
    const change = sn.change(number);
    if (change?.sys_created_by !== 'argo.gate' || change.approval !== 'not requested') return;
    sn.requestApproval(change, [alice]);
    sn.answer(change, alice, 'approved');
  });
  return {
    sn,
    alice,
    env: {
      APPROVALS_SERVICENOW_URL: sn.url,
      APPROVALS_SERVICENOW_USER: 'argo.gate',
      APPROVALS_SERVICENOW_PASSWORD: DEMO_SERVICENOW_PASSWORD,
    },
    close: () => sn.close(),
  };
}
