import { Injectable } from '@nestjs/common';
import type { BindingObject } from '../manifests/argo-objects.js';
import { EndpointLogger } from '../logging/endpoint-logger.js';

/** A Kubernetes Event as the Argo Server records it on a binding that failed. */
export interface RecordedEvent {
  type: 'Warning';
  reason: 'WorkflowEventBindingError';
  message: string;
  involvedObject: { apiVersion: string; kind: 'WorkflowEventBinding'; namespace: string; name: string };
  firstTimestamp: string;
}

/** Records binding errors as Warning Events (reason WorkflowEventBindingError) and logs them. */
@Injectable()
export class EventRecorder {
  private readonly recorded: RecordedEvent[] = [];

  constructor(private readonly logger: EndpointLogger) {}

  bindingError(binding: BindingObject, message: string): RecordedEvent {
    const event: RecordedEvent = {
      type: 'Warning',
      reason: 'WorkflowEventBindingError',
      message,
      involvedObject: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'WorkflowEventBinding',
        namespace: binding.metadata.namespace,
        name: binding.metadata.name,
      },
      firstTimestamp: new Date().toISOString(),
    };
    this.recorded.push(event);
    this.logger.warn(message, {
      reason: event.reason,
      binding: `${binding.metadata.namespace}/${binding.metadata.name}`,
    });
    return event;
  }

  events(): RecordedEvent[] {
    return [...this.recorded];
  }
}
