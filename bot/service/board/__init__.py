"""The live web board's side of the service: a viewer's page, the pages read back, who watches."""
