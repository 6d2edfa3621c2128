import { Module } from '@nestjs/common';
import { CustomFieldsAdminController } from './custom-fields.rpc-controller';
import { CustomFieldsService } from './custom-fields.service';

@Module({ controllers: [CustomFieldsAdminController], providers: [CustomFieldsService] })
export class CustomFieldsModule {}
