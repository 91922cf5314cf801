import { Module } from '@nestjs/common';
import { Authenticator } from './authenticator.js';

/** Tokens, identities and the emulated RBAC. */
@Module({ providers: [Authenticator], exports: [Authenticator] })
export class AuthModule {}
