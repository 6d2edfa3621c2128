import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, ConditionalRecordMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import { CategoryListQuery, CreateCategoryInput, UpdateCategoryInput } from './category.inputs';
import type { Category } from './category.views';

export class CreateCategoryMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateCategoryInput) body!: CreateCategoryInput;
}

export class UpdateCategoryMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdateCategoryInput) body!: UpdateCategoryInput;
}

export class CategoryListMessage extends CallerMessage {
  @ValidateNested() @Type(() => CategoryListQuery) query!: CategoryListQuery;
}

/** The categories of the register's API queue (RegisterRpc). */
export const CATEGORY_RPC = {
  categoriesList: rpc('categories.list', CategoryListMessage, reply<Page<Category>>(), LIST),
  categoriesGet: rpc('categories.get', RecordMessage, reply<Category>(), READ),
  categoriesCreate: rpc('categories.create', CreateCategoryMessage, reply<Category>()),
  categoriesUpdate: rpc('categories.update', UpdateCategoryMessage, reply<Category>()),
  categoriesDelete: rpc('categories.delete', ConditionalRecordMessage, reply<Category>()),
};
