import 'reflect-metadata';
import { startHttpApp } from '@shared/bootstrap';
import { AppModule, EMAIL_API_PORT, EMAIL_HTTP_OPTIONS } from './app.module';

void startHttpApp(AppModule, { ...EMAIL_HTTP_OPTIONS, defaultPort: EMAIL_API_PORT });
