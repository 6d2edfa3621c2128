import {
  Category,
  CategoryListQuery,
  CategoryPage,
  CreateCategoryInput,
  RegisterRpc,
  UpdateCategoryInput,
  type Page,
} from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../http/entity-tags';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

/** HTTP face of the register's categories; the rules live there. */
@ApiTags('Categories')
@Controller('categories')
export class CategoriesController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listCategories',
    summary: 'List categories',
    description: 'Paged, by name; `search` keeps those whose name contains it.',
  })
  @ApiOkResponse({ type: CategoryPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Access() access: AccessRecord, @Query() query: CategoryListQuery): Promise<Page<Category>> {
    return this.register.call(RegisterRpc.categoriesList, access, { query });
  }

  @Post()
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createCategory',
    summary: 'Create a category',
    description:
      'A name once per workspace, any case (a second one is a 409). Assets may also name a ' +
      'category that does not exist yet (`category`), which creates it.',
  })
  @ApiCreatedResponse({ type: Category, description: 'Created.' })
  @ApiErrors(400, 409, 422)
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateCategoryInput,
  ): Promise<Category> {
    return this.register.call(RegisterRpc.categoriesCreate, access, { body }, identity);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'category')
  @ApiOperation({ operationId: 'getCategory', summary: 'Fetch one category' })
  @ApiOkResponse({ type: Category, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<Category> {
    return this.register.call(RegisterRpc.categoriesGet, access, { id });
  }

  @Patch(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'category')
  @ApiOperation({
    operationId: 'updateCategory',
    summary: 'Rename a category',
    description:
      'Every asset of it shows the new name at once. No `asset.updated` fires for them: the ' +
      'asset did not change, the name it refers to did.',
  })
  @ApiOkResponse({ type: Category, description: 'OK.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateCategoryInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Category> {
    return this.register.call(
      RegisterRpc.categoriesUpdate,
      access,
      { id, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }

  @Delete(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'category')
  @ApiOperation({
    operationId: 'deleteCategory',
    summary: 'Delete an unused category',
    description: 'Only one no asset has: otherwise a 409 saying how many do. Answers it as it was.',
  })
  @ApiOkResponse({ type: Category, description: 'Deleted.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 409, 412, 422)
  delete(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Category> {
    return this.register.call(
      RegisterRpc.categoriesDelete,
      access,
      { id, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }
}
