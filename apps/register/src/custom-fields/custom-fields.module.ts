import { Module } from '@nestjs/common';
import { CustomFieldsAdminController, CustomFieldsService } from './custom-fields.service';

@Module({ controllers: [CustomFieldsAdminController], providers: [CustomFieldsService] })
export class CustomFieldsModule {}
