import { workflowCreator } from './workflow-creator.js';

describe('workflowCreator: who submitted the workflow', () => {
  const labels = {
    'workflows.argoproj.io/creator': 'system-serviceaccount-argo-ci',
    'workflows.argoproj.io/creator-email': 'alice.at.example.com',
    'workflows.argoproj.io/creator-preferred-username': 'alice',
  };

  it('reads the labels the agent sent, the email with its @ back, and then ignores the body', () => {
    expect(workflowCreator(labels, 'bob@example.com')).toEqual({
      subject: 'system-serviceaccount-argo-ci',
      email: 'alice@example.com',
      username: 'alice',
    });
  });

  it('labels sent without a creator label: not known, whatever the body says', () => {
    expect(workflowCreator({}, 'bob@example.com')).toBeUndefined();
  });

  it("without labels (Argo's agent): the body's creator, an email (either spelling) or a username", () => {
    expect(workflowCreator(undefined, 'bob@example.com')).toEqual({ email: 'bob@example.com' });
    expect(workflowCreator(undefined, 'bob.at.example.com')).toEqual({ email: 'bob@example.com' });
    expect(workflowCreator(undefined, 'bob')).toEqual({ username: 'bob' });
    expect(workflowCreator(undefined, undefined)).toBeUndefined();
  });
});
