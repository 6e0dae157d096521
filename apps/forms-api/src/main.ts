import 'reflect-metadata';
import { startHttpApp } from '@shared/bootstrap';
import { AppModule, FORMS_API_PORT } from './app.module';

void startHttpApp(AppModule, { service: 'forms-api', defaultPort: FORMS_API_PORT });
