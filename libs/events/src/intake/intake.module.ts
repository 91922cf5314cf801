import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { DispatchModule } from '../dispatch/dispatch.module.js';
import { ManifestsModule } from '../manifests/manifests.module.js';
import { SubmitModule } from '../submit/submit.module.js';
import { EventIntakeService } from './event-intake.service.js';
import { GatewayController } from './gateway.controller.js';

/** The HTTP front: POST /api/v1/events/{namespace}/{discriminator} and the read-only listings. */
@Module({
  imports: [AuthModule, DispatchModule, ManifestsModule, SubmitModule],
  controllers: [GatewayController],
  providers: [EventIntakeService],
})
export class IntakeModule {}
