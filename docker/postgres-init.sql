-- Runs once, on the first start of an empty postgres volume.
CREATE DATABASE email;
CREATE DATABASE forms;
