"""The workbench's panels beside the table: the instance's detail (and a crowd's), the live figures, the reference gold's scores, the document around an instance."""
