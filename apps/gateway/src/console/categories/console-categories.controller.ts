import {
  CreateCategoryInput,
  RegisterRpc,
  Category,
  CategoryListQuery,
  CategoryPage,
  UpdateCategoryInput,
  type Page,
} from '@custodian/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../../http/entity-tags';
import { ConsoleRegister } from '../register/console-register';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';

/**
 * Categories for signed-in members: the API's messages with the member as the caller. Every
 * role sees them (`categories.view`); owners, admins and managers change them (`categories.manage`).
 */
@ApiTags('Categories')
@Controller('console/api/categories')
export class ConsoleCategoriesController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('categories.view')
  @ApiOperation({
    operationId: 'listCategories',
    summary: 'A page of categories',
    description: 'As `GET /api/v1/categories`.',
  })
  @ApiOkResponse({ type: CategoryPage, description: 'OK.' })
  @ApiErrors(400)
  list(
    @Caller() caller: ConsoleCaller,
    @Query() query: CategoryListQuery,
  ): Promise<Page<Category>> {
    return this.register.call(RegisterRpc.categoriesList, caller, {
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post()
  @ConsoleAccess('categories.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createCategory',
    summary: 'Add a category',
    description: 'As `POST /api/v1/categories`.',
  })
  @ApiCreatedResponse({ type: Category, description: 'Created.' })
  @ApiErrors(400, 404, 409)
  create(@Caller() caller: ConsoleCaller, @Body() body: CreateCategoryInput): Promise<Category> {
    return this.register.call(RegisterRpc.categoriesCreate, caller, { body });
  }

  @Get(':id')
  @ConsoleAccess('categories.view')
  @ApiIdParam('id', 'category')
  @ApiOperation({ operationId: 'getCategory', summary: 'One category' })
  @ApiOkResponse({ type: Category, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Category> {
    return this.register.call(RegisterRpc.categoriesGet, caller, { id });
  }

  @Patch(':id')
  @ConsoleAccess('categories.manage')
  @ApiIdParam('id', 'category')
  @ApiOperation({
    operationId: 'updateCategory',
    summary: 'Change a category',
    description: 'As `PATCH /api/v1/categories/{id}`.',
  })
  @ApiOkResponse({ type: Category, description: 'After the change.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412)
  update(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdateCategoryInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Category> {
    return this.register.call(RegisterRpc.categoriesUpdate, caller, {
      id,
      body,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Delete(':id')
  @ConsoleAccess('categories.manage')
  @ApiIdParam('id', 'category')
  @ApiOperation({
    operationId: 'deleteCategory',
    summary: 'Delete a category',
    description: 'As `DELETE /api/v1/categories/{id}`: only when nothing uses it.',
  })
  @ApiOkResponse({ type: Category, description: 'Deleted.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 409, 412)
  delete(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Category> {
    return this.register.call(RegisterRpc.categoriesDelete, caller, {
      id,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }
}
